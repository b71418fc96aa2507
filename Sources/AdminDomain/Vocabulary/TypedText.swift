import Foundation

/// Text typed or pasted into a box, without what surrounds it: spaces, line breaks, and the
/// invisible characters that copying from mail and chat brings along (zero-width spaces and
/// joiners, word joiners, byte-order marks). What is inside is kept as typed.
public enum TypedText {
    public static func trimmed(_ text: some StringProtocol) -> String {
        text.trimmingCharacters(in: padding)
    }

    private static let padding = CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: "\u{200B}\u{200C}\u{200D}\u{2060}\u{FEFF}"))
}
