import AdminDomain
import HTMLRender

/// A card's small trend line: the figure's recent values, the period under way drawn dashed
/// (it is not over). Named for screen readers by its span and its first and last values;
/// the card's number and change say the rest.
struct SparklineSVG: HTMLComponent {
    static let width = 120.0, height = 32.0, pad = 3.0
    let line: Sparkline
    let format: FigureFormat

    var content: HTMLNode {
        let values = line.values
        let known = values.compactMap { $0 }
        guard known.count >= 2, let low = known.min(), let high = known.max(),
            let first = values.first(where: { $0 != nil }) ?? nil,
            let last = values.last ?? nil
        else { return .text("") }
        let spread = high - low
        func x(_ index: Int) -> Double {
            Self.pad + (Self.width - 2 * Self.pad) * Double(index) / Double(max(values.count - 1, 1))
        }
        func y(_ value: Double) -> Double {
            spread == 0 ? Self.height / 2 : Self.pad + (Self.height - 2 * Self.pad) * (1 - (value - low) / spread)
        }
        func point(_ index: Int) -> String? {
            values[index].map { "\(ChartGeometry.number(x(index))),\(ChartGeometry.number(y($0)))" }
        }
        let settled = values.indices.dropLast().compactMap(point)
        let underWay = [values.count - 2, values.count - 1].compactMap(point)
        let label =
            "Trend over \(line.span): \(HeadlineCard.text(first, format)) at the start, "
            + "\(HeadlineCard.text(last, format)) now (\(line.step == .day ? "today " : "")so far)"
        return element(
            "svg",
            [
                .class("sparkline"), Attribute("viewBox", "0 0 \(Int(Self.width)) \(Int(Self.height))"), .role("img"),
                .ariaLabel(label), Attribute("xmlns", "http://www.w3.org/2000/svg"),
                Attribute("preserveAspectRatio", "none"),
            ]
        ) {
            if settled.count >= 2 {
                shape("polyline", [.class("spark"), Attribute("points", settled.joined(separator: " "))])
            }
            if underWay.count == 2 {
                shape("polyline", [.class("spark partial"), Attribute("points", underWay.joined(separator: " "))])
            }
        }
    }
}
