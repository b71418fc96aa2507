import HTMLRender

/// Text that users of the app typed (names, items, emails), as pages show it: isolated in
/// `<bdi>` so right-to-left text cannot reorder what stands around it, with the controls that
/// override direction shown as "�" instead of obeyed ("Ahmad\u{202E}gnp.exe" must not read
/// "Ahmad exe.png"), control characters shown as their pictures (NUL as "␀") instead of
/// dropped or cutting the text short, and words broken anywhere. Past `clampAfter`
/// characters it is clamped to a few lines, with the whole value in the element's title.
struct UserText: HTMLComponent {
    let text: String
    var clampAfter = 120
    /// Text shown with its line breaks (a push's body): tabs and line breaks stay as they
    /// are. In a name or an email they are shown as "␉", "␊" and "␍" like any control.
    var multiline = false

    static func visible(_ text: String, multiline: Bool = false) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar in
                    switch scalar.value {
                    // Embeddings, overrides, isolates and marks.
                    case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: "\u{FFFD}"
                    // C0 controls: their pictures, U+2400 onwards, in the same order; DEL: U+2421.
                    case 0x09, 0x0A, 0x0D: multiline ? scalar : Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}"
                    case 0x00...0x1F: Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}"
                    case 0x7F: "\u{2421}"
                    default: scalar
                    }
                }))
    }

    var content: HTMLNode {
        let shown = Self.visible(text, multiline: multiline)
        guard shown.count > clampAfter else { return element("bdi", []) { shown } }
        return element("bdi", [.class("clamp"), .title(String(shown.prefix(2_000)))]) { shown }
    }
}
