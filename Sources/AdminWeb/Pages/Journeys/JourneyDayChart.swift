import AdminDomain
import HTMLRender

/// Entered and sent per day as paired bars, oldest on the left, with each day's figures in
/// its title; the table below has the same numbers for those who do not see the chart.
struct JourneyDayChart: HTMLComponent {
    /// Newest first, as the report gives them.
    let days: [JourneyReport.Day]

    static let width = 640.0, height = 160.0, bottom = 20.0

    var content: HTMLNode {
        let ordered = Array(days.reversed())
        let peak = Double(max(1, ordered.map(\.figures.entered).max() ?? 1))
        let slot = Self.width / Double(max(ordered.count, 1))
        let plot = Self.height - Self.bottom
        func bar(_ value: Int, _ index: Int, _ offset: Double, _ kind: String, _ title: String) -> HTMLNode {
            let h = plot * Double(value) / peak
            return element(
                "rect",
                [
                    .class("bar \(kind)"), Attribute("x", Self.number(slot * Double(index) + slot * offset)),
                    Attribute("y", Self.number(plot - h)), Attribute("width", Self.number(slot * 0.4)),
                    Attribute("height", Self.number(h)),
                ]
            ) {
                element("title", []) { title }
            }
        }
        return element("figure", [.class("chart journey-chart")]) {
            element(
                "svg",
                [
                    Attribute("viewBox", "0 0 \(Int(Self.width)) \(Int(Self.height))"), .role("img"),
                    .ariaLabel("Entered and sent per day"),
                ]
            ) {
                for (index, day) in ordered.enumerated() {
                    bar(day.figures.entered, index, 0.1, "s0", "\(day.day): entered \(day.figures.entered)")
                    bar(day.figures.sent, index, 0.5, "s1", "\(day.day): sent \(day.figures.sent)")
                }
                if let first = ordered.first {
                    element("text", [Attribute("x", "0"), Attribute("y", Self.number(Self.height - 4))]) { first.day }
                }
                if ordered.count > 1, let last = ordered.last {
                    element(
                        "text",
                        [
                            Attribute("x", Self.number(Self.width)), Attribute("y", Self.number(Self.height - 4)),
                            Attribute("text-anchor", "end"),
                        ]
                    ) { last.day }
                }
            }
            element("figcaption", []) {
                "Entered (first bar) and sent (second bar) per day of entry, up to 30 days, peak "
                    + "\(Format.grouped(Int(peak)))."
            }
        }
    }

    static func number(_ value: Double) -> String { String(format: "%.1f", value) }
}
