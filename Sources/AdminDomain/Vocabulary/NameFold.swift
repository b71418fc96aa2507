import Foundation

/// `TypedText.folded` for a name scan's rows, without Foundation for the names most people
/// have. Foundation's folding costs about 6 µs a name, so a scan of 100,000 names took longer
/// than its budget and support clicked "Look further" (issue 36). Each scalar a table covers
/// folds on its own, to one scalar, the same as Foundation folds it; a name with any other
/// scalar (a combining mark, a jamo, "ß" or "ﬁ" that fold to two, an unlisted block) takes
/// Foundation's way. `NameFoldTests` holds the two ways equal.
enum NameFold {
    /// Marks in `table`: a scalar the short way cannot fold, and one that is a space.
    private static let slow: UInt32 = .max, space: UInt32 = .max - 1
    /// Latin, Greek, Cyrillic, Armenian, Hebrew, Arabic and the rest below U+3100, kana included.
    private static let tableEnd: UInt32 = 0x3100
    private static let table: [UInt32] = (0..<tableEnd).map(entry)

    /// CJK ideographs and Hangul syllables have no case, are composed already and never join
    /// what comes before them: they fold to themselves.
    private static func isCaseless(_ value: UInt32) -> Bool {
        (0x3400...0x4DBF).contains(value) || (0x4E00...0x9FFF).contains(value) || (0xAC00...0xD7A3).contains(value)
    }

    private static func entry(_ value: UInt32) -> UInt32 {
        guard let scalar = Unicode.Scalar(value) else { return slow }
        if scalar.properties.isWhitespace { return space }
        let properties = scalar.properties
        // A mark or a jamo may join the scalar before it when composed; U+0340-style
        // singletons change under composition; neither is safe one at a time.
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .control, .format, .surrogate, .unassigned, .privateUse:
            return slow
        default: break
        }
        if (0x1100...0x11FF).contains(value) || properties.canonicalCombiningClass != .notReordered { return slow }
        // Between two letters: Foundation answers a string of one scalar differently (U+0958
        // and U+037E come back as they are alone, decomposed or replaced among others).
        let among = "a" + String(scalar) + "b"
        guard among.precomposedStringWithCanonicalMapping.unicodeScalars.elementsEqual(among.unicodeScalars) else {
            return slow
        }
        let folded = Array(among.folding(options: [.caseInsensitive], locale: nil).unicodeScalars)
        guard folded.count == 3, folded[0] == "a", folded[2] == "b", !folded[1].properties.isWhitespace else {
            return slow
        }
        return folded[1].value
    }

    /// The folded UTF-8 bytes of `bytes` (a name as stored), or nil when the name needs
    /// Foundation. Spaces as `TypedText.folded` has them: runs as one, none at either end.
    static func folded(utf8 bytes: Data) -> Data? {
        // Raw bytes in, an array out: Data's own iterator and appends cost more than the fold.
        bytes.withUnsafeBytes { raw -> Data? in
            var out: [UInt8] = []
            out.reserveCapacity(raw.count)
            var pendingSpace = false
            var decoder = UTF8()
            var iterator = raw.makeIterator()
            while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar):
                    let value = scalar.value
                    let folded: UInt32
                    if value < tableEnd {
                        folded = table[Int(value)]
                    } else if isCaseless(value) {
                        folded = value
                    } else {
                        return nil
                    }
                    if folded == slow { return nil }
                    if folded == space {
                        pendingSpace = !out.isEmpty
                        continue
                    }
                    if pendingSpace {
                        out.append(0x20)
                        pendingSpace = false
                    }
                    if folded < 0x80 {
                        out.append(UInt8(truncatingIfNeeded: folded))
                    } else if let scalar = Unicode.Scalar(folded) {
                        UTF8.encode(scalar) { out.append($0) }
                    } else {
                        return nil
                    }
                case .emptyInput:
                    return Data(out)
                case .error:
                    return nil
                }
            }
        }
    }
}
