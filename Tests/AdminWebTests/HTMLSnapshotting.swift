import Foundation
import HTMLRender
import SnapshotTesting

/// Pages as `.html` snapshots a reviewer can read in a diff and open in a browser: the
/// rendered bytes with a line break put before each tag that opens a block (and before the
/// closing tags of containers), and nothing else changed. Text cannot hold a `<` (it is
/// escaped), so every `<` found is a tag's.
extension Snapshotting where Value == String, Format == String {
    static var html: Snapshotting {
        Snapshotting(pathExtension: "html", diffing: .lines).pullback(HTMLLines.broken)
    }
}

enum HTMLLines {
    /// Opening tags that start a line.
    static let opening: Set<String> = [
        "head", "body", "meta", "link", "title", "script", "noscript", "header", "nav", "main", "section", "div", "h1",
        "h2", "h3",
        "h4", "p", "ul", "ol", "li", "dl", "dt", "dd", "table", "caption", "thead", "tbody", "tr", "th", "td", "form",
        "fieldset",
        "legend", "label", "input", "select", "option", "textarea", "button", "figure", "figcaption", "details",
        "summary",
        "progress", "datalist", "svg", "g", "text", "line", "path", "rect", "polyline", "circle",
    ]
    /// Closing tags of containers, so that a container's end is seen where it is.
    static let closing: Set<String> = [
        "head", "body", "html", "header", "nav", "main", "section", "div", "ul", "ol", "dl", "table", "thead", "tbody",
        "tr", "form",
        "fieldset", "select", "figure", "details", "svg", "g",
    ]

    static func broken(_ page: String) -> String {
        var out = ""
        out.reserveCapacity(page.utf8.count + page.utf8.count / 16)
        var rest = page[...]
        while let open = rest.firstIndex(of: "<") {
            out += rest[..<open]
            let tag = rest[rest.index(after: open)...]
            let isClosing = tag.first == "/"
            let name = (isClosing ? tag.dropFirst() : tag).prefix { $0.isLetter || $0.isNumber }.lowercased()
            if (isClosing ? closing : opening).contains(name), !out.isEmpty, !out.hasSuffix("\n") { out += "\n" }
            out += "<"
            rest = tag
        }
        out += rest
        return out.hasSuffix("\n") ? out : out + "\n"
    }
}

/// Where snapshots are written and compared, and how they are named: one file per view and
/// state, `__Snapshots__/<test file>/<ViewType>.<state>.html`, which `EveryViewHasASnapshot`
/// reads to find views without one.
enum PageSnapshots {
    /// Set to anything but "", "0", "false" or "no" by CI services, and by `.ci/run`.
    static var inCI: Bool {
        guard let value = ProcessInfo.processInfo.environment["CI"]?.lowercased() else { return false }
        return !["", "0", "false", "no"].contains(value)
    }

    /// In CI nothing is ever written: a missing snapshot fails and stays missing, so a retry
    /// cannot pass on a file the first try wrote. Elsewhere the library decides: a missing
    /// snapshot is recorded (and the test fails once); `SNAPSHOT_TESTING_RECORD=all` or a
    /// `.snapshots(record: .all)` trait records them all again.
    static var record: SnapshotTestingConfiguration.Record? { inCI ? .never : nil }

    static func page(_ view: some HTMLComponent) -> String {
        String(decoding: HTMLDocument(root: view.content).render(), as: UTF8.self)
    }
}

/// Compares `view`'s page with its snapshot `<ViewType>.<state>.html`.
func assertPageSnapshot(
    of view: some HTMLComponent, _ state: String, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
) {
    assertSnapshot(
        of: PageSnapshots.page(view), as: .html, named: state, record: PageSnapshots.record, fileID: fileID,
        file: filePath, testName: String(describing: type(of: view)), line: line, column: column)
}

/// Text a person or an app could have typed, at its worst.
enum Hostile {
    static let script = "<script>alert(\"x\" & 'y')</script>"
    /// "Ahmad exe.png" where a right-to-left override is obeyed.
    static let rightToLeft = "Ahmad\u{202E}gnp.exe"
    static let name = "Zoë \"<b>Boss</b>\" & Co. 🍎🥛 \(rightToLeft)"
    static let email = "<img src=x onerror=alert(1)>&\"q\"@odd.test"
    static let long = String(repeating: "Averyveryverylongwordwithoutanyspaces", count: 6)
}
