import AdminDomain
import HTMLRender

/// The drawing area shared by the charts: a fixed SVG coordinate space (the browser scales
/// it to the width it has) with room for the y axis's numbers and the x axis's labels. It is
/// about as wide as a chart's column on a laptop, so that text of 12.5 units is 12 px or
/// more there; phones draw the text larger (app.css) and every other x label is `minor`,
/// hidden on them, so the larger labels keep apart.
struct ChartGeometry {
    static let width = 500.0, height = 312.0
    /// The y axis's name is written above the plot, clear of its numbers at any text size.
    static let left = 90.0, right = 12.0, top = 34.0, bottom = 96.0
    /// Added under a chart whose category names slant, so that a name of 16 letters fits
    /// in the larger text of a phone.
    static let slantRoom = 48.0
    /// The most letters of a slanting category name; a longer one ends at a word with "…".
    static let slantLetters = 16

    /// Category names slant when there are more than five, or one has a word too wide for
    /// its slot.
    static func slants(_ labels: [String], axis: DashboardChart.Axis) -> Bool {
        guard axis == .categories else { return false }
        let letters = lineLetters(count: labels.count)
        return labels.count > 5 || labels.contains { $0.split(separator: " ").contains { $0.count > letters } }
    }

    /// Room added under the plot: only for slanting names longer than the 11 letters that
    /// fitted before.
    static func extraBottom(_ labels: [String], axis: DashboardChart.Axis) -> Double {
        slants(labels, axis: axis) && labels.contains { $0.count > 11 } ? slantRoom : 0
    }

    /// Letters of a phone's larger text (18 units, about 9.5 units a letter) in one slot.
    static func lineLetters(count: Int) -> Int {
        max(6, Int(plotWidth / Double(max(count, 1)) / 9.5))
    }

    /// A name in at most `lines` lines of about `letters` letters, broken between words.
    /// What does not fit is left out at a word boundary and marked "…" (`cut`; the caller
    /// gives the whole name in a title). Only a "word" longer than two lines, which no
    /// vocabulary has, is cut inside.
    static func wrap(_ label: String, letters: Int, lines: Int) -> (lines: [String], cut: Bool) {
        var result: [String] = []
        var current = ""
        var words = label.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        var cut = false
        while !words.isEmpty {
            var word = words.removeFirst()
            if word.count > letters * 2 {
                word = String(word.prefix(letters)) + "…"
                cut = true
            }
            if current.isEmpty {
                current = word
            } else if current.count + 1 + word.count <= letters {
                current += " " + word
            } else if result.count + 1 < lines {
                result.append(current)
                current = word
            } else {
                words.insert(word, at: 0)
                break
            }
            if cut { words.removeAll() }
        }
        if !words.isEmpty {
            cut = true
            if !current.hasSuffix("…") { current += "…" }
        }
        result.append(current)
        return (result, cut)
    }
    static var plotWidth: Double { width - left - right }
    static var plotHeight: Double { height - top - bottom }

    /// The top of the y axis: a round number at or above the peak, split in four ticks.
    let top: Int
    let step: Int
    let unit: DashboardChart.Unit

    init(peak: Int, unit: DashboardChart.Unit) {
        self.unit = unit
        let quarter = max(1, (peak + 3) / 4)
        var magnitude = 1
        while magnitude * 10 <= quarter { magnitude *= 10 }
        let multiple = [1, 2, 5, 10].first { $0 * magnitude >= quarter } ?? 10
        step = multiple * magnitude
        top = step * 4
    }

    func y(_ value: Int) -> Double {
        Self.top + Self.plotHeight * (1 - Double(value) / Double(top))
    }

    func valueText(_ value: Int) -> String {
        unit == .cents ? (value / 100).grouped : value.grouped
    }

    /// Tenths at most, and no ".0": a chart has hundreds of these.
    static func number(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? String(tenths / 10) : String(tenths).insertingDecimalPoint
    }

    /// Grid lines and the numbers on the y axis, its name turned along it, and the x axis's
    /// labels (every one for categories, about six for days and weeks).
    func axes(labels: [String], axis: DashboardChart.Axis, valueLabel: String, axisName: String) -> [HTMLNode] {
        var nodes: [HTMLNode] = []
        for tick in 0...4 {
            let value = tick * step
            let y = Self.number(self.y(value))
            nodes.append(
                shape(
                    "line",
                    [
                        .class("grid"), Attribute("x1", Self.number(Self.left)),
                        Attribute("x2", Self.number(Self.width - Self.right)),
                        Attribute("y1", y), Attribute("y2", y),
                    ]))
            nodes.append(
                element(
                    "text",
                    [
                        .class("tick"), Attribute("x", Self.number(Self.left - 6)), Attribute("y", y),
                        Attribute("text-anchor", "end"), Attribute("dominant-baseline", "middle"),
                    ]
                ) { valueText(value) })
        }
        nodes.append(
            element(
                "text",
                [
                    .class("axis-name y-name"), Attribute("x", "2"), Attribute("y", "18"),
                    Attribute("text-anchor", "start"),
                ]
            ) { valueLabel })
        let slot = Self.plotWidth / Double(max(labels.count, 1))
        let every = axis == .categories ? 1 : max(1, Int((Double(labels.count) / 6).rounded(.up)))
        let shownIndices = labels.indices.filter { (labels.count - 1 - $0) % every == 0 }
        // Many category names side by side would run into each other: they slant.
        let slanted = Self.slants(labels, axis: axis)
        let letters = Self.lineLetters(count: labels.count)
        let hoursOfDay =
            axis == .categories && labels.count > 12 && labels.allSatisfy { $0.wholeMatch(of: /\d\d:\d\d\*?/) != nil }
        var previousYear: Substring?
        var previousMajorYear: Substring?
        for (order, index) in shownIndices.enumerated() {
            let label = labels[index]
            var x = Self.left + slot * (Double(index) + 0.5)
            let y = Self.number(Self.height - Self.bottom + 20)
            // Counted from the newest label, which phones always keep. Categories keep all.
            // Hours of a day (24 labels "HH:MM") slant into each other on a phone: it keeps every
            // third, counted from the newest.
            let minor =
                axis != .categories
                ? (shownIndices.count - 1 - order) % 2 == 1
                : hoursOfDay && (labels.count - 1 - index) % 3 != 0
            let year = axis == .categories ? nil : Self.year(of: label)
            // The year on the first label and where it changes; a label a phone keeps also
            // has it where the one before it that had it is hidden on a phone.
            let newYear = year != nil && year != previousYear
            let phoneYear = !minor && !newYear && year != nil && year != previousMajorYear
            // Category names are never cut inside a word: two lines, or one slanting line, and
            // the whole name in a title where words were left out.
            let wrapped =
                axis == .categories
                ? (slanted
                    ? Self.wrap(label, letters: Self.slantLetters, lines: 1)
                    : Self.wrap(label, letters: letters, lines: 2))
                : (lines: [Self.dayText(label)], cut: false)
            previousYear = year ?? previousYear
            if !minor { previousMajorYear = year ?? previousMajorYear }
            var placement: [Attribute]
            if slanted {
                placement = [
                    Attribute("text-anchor", "end"), Attribute("transform", "rotate(-45 \(Self.number(x)) \(y))"),
                ]
            } else if index == labels.count - 1 && axis != .categories {
                // The newest label ends at its own slot's right edge rather than past the drawing's.
                x = min(x + slot / 2, Self.width - 2)
                placement = [Attribute("text-anchor", "end")]
            } else {
                placement = [Attribute("text-anchor", "middle")]
            }
            nodes.append(
                element(
                    "text",
                    [.class(minor ? "tick minor" : "tick"), Attribute("x", Self.number(x)), Attribute("y", y)]
                        + placement
                ) {
                    if wrapped.cut { element("title", []) { label } }
                    wrapped.lines[0]
                    for line in wrapped.lines.dropFirst() {
                        element("tspan", [Attribute("x", Self.number(x)), Attribute("dy", "1.2em")]) { line }
                    }
                    // The year goes on a line of its own under the day, so the labels stay as narrow.
                    if newYear || phoneYear, let year {
                        element(
                            "tspan",
                            [
                                .class(phoneYear ? "year phone-only" : "year"), Attribute("x", Self.number(x)),
                                Attribute("dy", "1.2em"),
                            ]
                        ) { String(year) }
                    }
                })
        }
        // Under slanted labels a phone has no room for the axis's name (the table names it).
        nodes.append(
            element(
                "text",
                [
                    .class(slanted ? "axis-name under-slant" : "axis-name"),
                    Attribute("x", Self.number(Self.left + Self.plotWidth / 2)),
                    Attribute("y", Self.number(Self.height - 4 + Self.extraBottom(labels, axis: axis))),
                    Attribute("text-anchor", "middle"),
                ]
            ) { axisName })
        nodes.append(
            shape(
                "line",
                [
                    .class("baseline"), Attribute("x1", Self.number(Self.left)),
                    Attribute("x2", Self.number(Self.width - Self.right)),
                    Attribute("y1", Self.number(y(0))), Attribute("y2", Self.number(y(0))),
                ]))
        return nodes
    }

    /// 'YYYY' of a 'YYYY-MM-DD' or 'Week of YYYY-MM-DD' label.
    static func year(of label: String) -> Substring? {
        let day = label.hasPrefix("Week of ") ? label.dropFirst(8) : Substring(label)
        return day.count == 10 ? day.prefix(4) : nil
    }

    /// "11-22" of a day or a week's label; the year is written under it where it is new.
    static func dayText(_ label: String) -> String {
        String((label.hasPrefix("Week of ") ? String(label.dropFirst(8)) : label).suffix(5))
    }
}

extension String {
    /// "1234" → "123.4": tenths of a unit, written without Foundation's locale.
    fileprivate var insertingDecimalPoint: String {
        let negative = hasPrefix("-")
        var digits = negative ? String(dropFirst()) : self
        while digits.count < 2 { digits = "0" + digits }
        return (negative ? "-" : "") + digits.dropLast() + "." + digits.suffix(1)
    }
}

/// An SVG shape, closed explicitly: inside HTML, `<line>` without `</line>` would swallow
/// what follows it. With a title, browsers show it on hover.
func shape(_ name: StaticString, _ attributes: [Attribute], title: String? = nil) -> HTMLNode {
    element(name, attributes) {
        if let title { element("title", []) { title } }
    }
}
