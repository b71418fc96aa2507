import Foundation
import GRDB

/// Text typed or pasted into a box, without what surrounds it: spaces, line breaks, and the
/// invisible characters that copying from mail and chat brings along (zero-width spaces and
/// joiners, word joiners, byte-order marks). What is inside is kept as typed.
public enum TypedText {
    /// Also composed (NFC): "á" pasted as "a" and a combining accent matches the "á" stored.
    /// Control characters cannot be typed into a box, so they count as spaces: a pasted NUL
    /// would otherwise make SQLite's instr() look for nothing and match every name.
    public static func trimmed(_ text: some StringProtocol) -> String {
        String(
            String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 })
        )
        .trimmingCharacters(in: padding).precomposedStringWithCanonicalMapping
    }

    /// For matching names in any case, in any script, spaced as typed: composed,
    /// case-folded and with runs of spaces as one ("ÉLODIE  Müller" and "élodie müller"
    /// alike). SQLite's own lower() folds ASCII letters only. A name scan calls this for
    /// every row it reads, so plain ASCII takes the short way.
    public static func folded(_ text: String) -> String {
        let folded =
            text.utf8.allSatisfy { $0 < 0x80 }
            ? text.lowercased()
            : text.precomposedStringWithCanonicalMapping.folding(options: [.caseInsensitive], locale: nil)
        // Spaces are scalars, not characters: a mark after a space (a cluster Swift calls
        // whitespace) is kept, as `NameFold` keeps it, not dropped with the space.
        let scalars = folded.unicodeScalars
        guard scalars.contains(where: \.properties.isWhitespace) else { return folded }
        let words = scalars.split(whereSeparator: \.properties.isWhitespace).map {
            String(String.UnicodeScalarView($0))
        }
        return words.joined(separator: " ")
    }

    private static let padding = CharacterSet.whitespacesAndNewlines.union(
        CharacterSet(charactersIn: "\u{200B}\u{200C}\u{200D}\u{2060}\u{FEFF}"))
}

extension TypedText {
    /// `panel_folded(CAST(column AS BLOB))` in SQL: `folded` for a column, as UTF-8 bytes, so
    /// a bounded scan can compare it with `instr` against the folded text as bytes. Blobs in
    /// and out: a name with a NUL in it is folded and compared whole. Most names take
    /// `NameFold`'s short way.
    static let sqlFolded = DatabaseFunction("panel_folded", argumentCount: 1, pure: true) { values in
        switch values[0].storage {
        case .blob(let data): NameFold.folded(utf8: data) ?? Data(folded(String(decoding: data, as: UTF8.self)).utf8)
        case .string(let text): Data(folded(text).utf8)
        default: nil
        }
    }
}
