import Foundation
import Testing

@testable import AdminDomain

/// The name scan's short way must fold exactly as Foundation does (`TypedText.folded`, the
/// definition), or it must step aside (nil) for Foundation.
@Suite(.timeLimit(.minutes(20))) struct NameFoldTests {
    static func foundation(_ text: String) -> Data { Data(TypedText.folded(text).utf8) }

    @Test func everyScalarTheShortWayTakesFoldsAsFoundationFoldsIt() {
        var taken = 0
        for value in UInt32(0)..<0x1_0000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "a" + String(scalar) + "b"
            if let short = NameFold.folded(utf8: Data(text.utf8)) {
                taken += 1
                #expect(short == Self.foundation(text), "U+\(String(value, radix: 16))")
            }
        }
        // Most of the Basic Multilingual Plane: letters of the world's alphabets and CJK.
        #expect(taken > 30_000, "\(taken)")
    }

    @Test func namesAsPeopleWriteThemFoldAsFoundationFoldsThem() {
        let names = [
            "Łukasz Silva", "José MÜLLER", "ÉLODIE  Müller", "  Ana\tMaria \n", "ΣΊΣΥΦΟΣ Παπαδόπουλος",
            "Влади́мир ПЕТРОВ",
            "田中 太郎", "김민준", "Ǆemal", "محمد علي", "דוד כהן", "Ørsted Åse", "\u{00A0}Nbsp\u{00A0}Name", "Zoë",
        ]
        for name in names {
            let short = NameFold.folded(utf8: Data(name.utf8))
            if let short { #expect(short == Self.foundation(name), "\(name)") }
        }
        // These need Foundation: two scalars from one, a combining mark, a decomposed accent, a
        // jamo, an emoji, a NUL, bytes that are not UTF-8.
        for odd in ["Straße", "ﬁnn", "İstanbul", "Jose\u{301}", "\u{1100}\u{1161}", "Ana 😀", "A\u{0}B"] {
            #expect(NameFold.folded(utf8: Data(odd.utf8)) == nil, "\(odd)")
        }
        #expect(NameFold.folded(utf8: Data([0x41, 0xFF, 0x42])) == nil)
        // Nguyễn's ễ is one composed scalar: the short way takes it, and agrees.
        #expect(NameFold.folded(utf8: Data("NGUYỄN".utf8)) == Self.foundation("NGUYỄN"))
    }

    /// A random mix once found this: a space then a mark is one Swift character that counts
    /// as whitespace, and splitting by characters dropped the mark.
    @Test func aMarkAfterASpaceIsKeptBothWays() {
        let text = "\u{1EC5}\u{0C7F}\u{0717}\u{1BB9} \u{0EB3}\u{1B8E}"
        let expected = Data("\u{1EC5}\u{0C7F}\u{0717}\u{1BB9} \u{0EB3}\u{1B8E}".utf8)
        #expect(Self.foundation(text) == expected)
        #expect(NameFold.folded(utf8: Data(text.utf8)) == expected)
    }

    @Test func randomMixesOfTheScalarsItTakesFoldAsFoundationFoldsThem() {
        var generator = SystemRandomNumberGenerator()
        let pool: [Unicode.Scalar] = (UInt32(0x20)..<0x3100).compactMap(Unicode.Scalar.init)
            .filter { NameFold.folded(utf8: Data(String($0).utf8)) != nil }
        for _ in 0..<3_000 {
            let length = Int.random(in: 1...14, using: &generator)
            let text = String(
                String.UnicodeScalarView((0..<length).map { _ in pool.randomElement(using: &generator)! }))
            guard let short = NameFold.folded(utf8: Data(text.utf8)) else { continue }
            #expect(short == Self.foundation(text), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }
}
