import HTMLRender

/// Text that users of the app typed (names, items, emails), as pages show it: isolated in
/// `<bdi>` so right-to-left text cannot reorder what stands around it, with the controls that
/// override direction shown as "�" instead of obeyed ("Ahmad\u{202E}gnp.exe" must not read
/// "Ahmad exe.png"), and words broken anywhere. Past `clampAfter` characters it is clamped
/// to a few lines, with the whole value in the element's title.
struct UserText: HTMLComponent {
    let text: String
    var clampAfter = 120

    /// Embeddings, overrides, isolates and marks: U+202A–U+202E, U+2066–U+2069, U+200E/F, U+061C.
    static func visible(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            switch scalar.value {
            case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: "\u{FFFD}"
            default: scalar
            }
        }))
    }

    var content: HTMLNode {
        let shown = Self.visible(text)
        guard shown.count > clampAfter else { return element("bdi", []) { shown } }
        return element("bdi", [.class("clamp"), .title(String(shown.prefix(2_000)))]) { shown }
    }
}
