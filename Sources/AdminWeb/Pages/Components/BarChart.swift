import HTMLRender

/// A bar chart drawn as SVG on the server: no script, no inline style (the CSP forbids
/// both); sizes are SVG attributes and colours come from the stylesheet.
struct BarChart: HTMLComponent {
    struct Bar {
        let label: String
        let value: Int
    }

    let caption: String
    let bars: [Bar]

    var content: HTMLNode {
        let width = 600, height = 160, gap = 2
        let peak = max(bars.map(\.value).max() ?? 0, 1)
        let slot = bars.isEmpty ? width : width / bars.count
        return figure(.class("chart")) {
            element("svg", [Attribute("viewBox", "0 0 \(width) \(height)"), .role("img"), .ariaLabel(caption),
                             Attribute("preserveAspectRatio", "none")]) {
                for (index, bar) in bars.enumerated() {
                    let barHeight = bar.value == 0 ? 0 : max(1, bar.value * (height - 4) / peak)
                    element("rect", [.class("bar"), Attribute("x", String(index * slot)), Attribute("y", String(height - barHeight)),
                                     Attribute("width", String(max(1, slot - gap))), Attribute("height", String(barHeight))]) {
                        element("title", []) { "\(bar.label): \(Format.grouped(bar.value))" }
                    }
                }
            }
            figcaption {
                caption
                if let first = bars.first, let last = bars.last {
                    " (\(first.label) to \(last.label), peak \(Format.grouped(peak)))"
                }
            }
        }
    }
}
