import AdminDomain
import HTMLRender

/// The drawing area shared by the charts: a fixed SVG coordinate space (the browser scales
/// it to the width it has) with room for the y axis's numbers and the x axis's labels.
struct ChartGeometry {
    static let width = 640.0, height = 272.0
    static let left = 60.0, right = 12.0, top = 14.0, bottom = 82.0
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
            let value = tick * step, y = Self.number(self.y(value))
            nodes.append(shape("line", [.class("grid"), Attribute("x1", Self.number(Self.left)), Attribute("x2", Self.number(Self.width - Self.right)),
                                              Attribute("y1", y), Attribute("y2", y)]))
            nodes.append(element("text", [.class("tick"), Attribute("x", Self.number(Self.left - 6)), Attribute("y", y),
                                          Attribute("text-anchor", "end"), Attribute("dominant-baseline", "middle")]) { valueText(value) })
        }
        let middle = Self.number(Self.top + Self.plotHeight / 2)
        nodes.append(element("text", [.class("axis-name"), Attribute("transform", "translate(12 \(middle)) rotate(-90)"),
                                      Attribute("text-anchor", "middle")]) { valueLabel })
        let slot = Self.plotWidth / Double(max(labels.count, 1))
        let every = axis == .categories ? 1 : max(1, Int((Double(labels.count) / 6).rounded(.up)))
        for (index, label) in labels.enumerated() where (labels.count - 1 - index) % every == 0 {
            let x = Self.left + slot * (Double(index) + 0.5)
            let shown = axis == .categories && label.count > 14 ? String(label.prefix(13)) + "…" : shortLabel(label, axis: axis)
            let y = Self.number(Self.height - Self.bottom + 16)
            // Many category names side by side would run into each other: they slant.
            let placement = labels.count > 5 && axis == .categories
                ? [Attribute("text-anchor", "end"), Attribute("transform", "rotate(-30 \(Self.number(x)) \(y))")]
                : [Attribute("text-anchor", "middle")]
            nodes.append(element("text", [.class("tick"), Attribute("x", Self.number(x)), Attribute("y", y)] + placement) { shown })
        }
        nodes.append(element("text", [.class("axis-name"), Attribute("x", Self.number(Self.left + Self.plotWidth / 2)),
                                      Attribute("y", Self.number(Self.height - 4)), Attribute("text-anchor", "middle")]) { axisName })
        nodes.append(shape("line", [.class("baseline"), Attribute("x1", Self.number(Self.left)), Attribute("x2", Self.number(Self.width - Self.right)),
                                          Attribute("y1", Self.number(y(0))), Attribute("y2", Self.number(y(0)))]))
        return nodes
    }

    /// "11-22" for a day, "11-16" for a week: the year is in the table and the hover titles.
    private func shortLabel(_ label: String, axis: DashboardChart.Axis) -> String {
        switch axis {
        case .days: String(label.suffix(5))
        case .weeks: String(label.suffix(5))
        case .categories: label
        }
    }
}

private extension String {
    /// "1234" → "123.4": tenths of a unit, written without Foundation's locale.
    var insertingDecimalPoint: String {
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
