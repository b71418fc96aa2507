/// Control characters in what was typed into a form.
extension TypedText {
    /// The first character `text` may not hold: a C0 control, DEL or a C1 control. SQLite
    /// reads a bound text only up to a NUL ("a\0b" was stored as "a"), and the others are
    /// invisible or move a terminal's cursor. `multiLine` (a message body): tab, line feed and
    /// the carriage return of a CRLF, as browsers send a text area's line breaks, are text.
    public static func controlCharacter(in text: some StringProtocol, multiLine: Bool = false) -> Unicode.Scalar? {
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            defer { previous = scalar }
            // A CR counts only with the LF after it: checked when that LF comes.
            if previous == "\r", !(multiLine && scalar == "\n") { return "\r" }
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: if !multiLine { return scalar }
            case 0x00...0x1F, 0x7F...0x9F: return scalar
            default: continue
            }
        }
        return previous == "\r" ? "\r" : nil
    }

    /// "U+0000": how a sentence names a character nobody can see.
    public static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// The sentence for a field that holds one, or nil: "the title holds a control character
    /// (U+0000), which the panel does not store".
    public static func controlProblem(_ label: String, in text: some StringProtocol, multiLine: Bool = false) -> String?
    {
        controlCharacter(in: text, multiLine: multiLine).map {
            "\(label) holds a control character (\(codePoint($0))), which the panel does not store"
        }
    }
}
