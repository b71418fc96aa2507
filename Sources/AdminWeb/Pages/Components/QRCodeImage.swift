import HTMLRender
import QRCode

/// A QR code as inline SVG: one path of dark runs on a light square with the standard's
/// four-module quiet zone. Colours are attributes, not style, so the CSP holds and the code
/// stays black on white in any theme.
struct QRCodeImage: HTMLComponent {
    let code: QRCode
    let label: String

    var content: HTMLNode {
        let quiet = 4
        let extent = code.size + 2 * quiet
        var path = ""
        for (y, row) in code.modules.enumerated() {
            var x = 0
            while x < row.count {
                guard row[x] else {
                    x += 1
                    continue
                }
                let start = x
                while x < row.count && row[x] { x += 1 }
                path += "M\(start + quiet) \(y + quiet)h\(x - start)v1h-\(x - start)z"
            }
        }
        return element(
            "svg",
            [
                Attribute("viewBox", "0 0 \(extent) \(extent)"), .class("qr"), .role("img"), .ariaLabel(label),
                Attribute("shape-rendering", "crispEdges"),
            ]
        ) {
            element(
                "rect",
                [Attribute("width", String(extent)), Attribute("height", String(extent)), Attribute("fill", "#fff")]
            ) {}
            element("path", [Attribute("d", path), Attribute("fill", "#000")]) {}
        }
    }
}
