import Testing

@testable import AdminDomain

/// The receipts' per-day key: two texts are one key exactly when their bytes are the same,
/// whatever zeros, lengths or sizes around the 31 bytes packed into words.
@Suite(.timeLimit(.minutes(20))) struct TextKeyTests {
    static let texts: [[UInt8]] = [
        [], [0], [0, 0], Array("a".utf8), Array("a\u{0}".utf8), Array("c12-345".utf8), Array("c12-3450".utf8),
        Array(repeating: UInt8(ascii: "x"), count: 30), Array(repeating: UInt8(ascii: "x"), count: 31),
        Array(repeating: UInt8(ascii: "x"), count: 32), Array(repeating: UInt8(ascii: "x"), count: 33),
        Array(repeating: 0, count: 31), Array("é😀".utf8), [0xFF, 0xFE],
    ]

    static func key(_ bytes: [UInt8]) -> TextKey {
        bytes.withUnsafeBytes { TextKey($0) }
    }

    @Test func keysAreEqualExactlyWhenTheBytesAre() {
        for first in Self.texts {
            for second in Self.texts {
                #expect((Self.key(first) == Self.key(second)) == (first == second), "\(first) and \(second)")
            }
        }
        #expect(Set(Self.texts.map(Self.key)).count == Self.texts.count)
    }
}
