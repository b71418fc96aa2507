import Crypto
import Foundation
import Testing

@testable import QRCode

/// Reference matrices from python-qrcode 8.2, an independent encoder (`QRCode(
/// error_correction=ERROR_CORRECT_M, border=0, mask_pattern=…)` with the data added as
/// `QRData(bytes, mode=MODE_8BIT_BYTE)`): rows of 0 and 1, one per line, compared by SHA-256
/// except the smallest, which is spelled out. (segno 1.6 was tried first and differs: it
/// pads byte-aligned data with an extra zero codeword.)
@Suite(.timeLimit(.minutes(20))) struct QRCodes {
    static let uri =
        "otpauth://totp/Expiry%20Tracker%20Admin:admin@example.com"
        + "?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXPJBSWY3DP"
        + "&issuer=Expiry%20Tracker%20Admin&algorithm=SHA1&digits=6&period=30"

    static func text(_ code: QRCode) -> String {
        code.modules.map { row in String(row.map { $0 ? "1" : "0" }) }.joined(separator: "\n")
    }

    @Test func versionOneMatchesTheReferenceModuleForModule() throws {
        let code = try QRCode.encode(Array("hello".utf8), mask: 2)
        let expected = """
            #######.......#######
            #.....#..#.##.#.....#
            #.###.#.#.###.#.###.#
            #.###.#.#.#.#.#.###.#
            #.###.#.#.#.#.#.###.#
            #.....#.#..#..#.....#
            #######.#.#.#.#######
            ........#.#..........
            #.#####...##..#####..
            ###.#..#..#####..##.#
            .##.#.#.....#.##.###.
            ....##.#...####..##..
            .#.#..####..#..#....#
            ........###.#..#.#..#
            #######..#.#.#..#.##.
            #.....#.#.#....#####.
            #.###.#.##.#.#..#..#.
            #.###.#.##.#####.#...
            #.###.#.#...#.##..#..
            #.....#..#.####.###..
            #######.#...#...#..#.
            """
        #expect(code.version == 1)
        #expect(code.modules.map { String($0.map { $0 ? "#" : "." }) }.joined(separator: "\n") == expected)
    }

    @Test(arguments: [
        (uri, 6, 10, "752731f64f6c6414ec4b2bf7cd9eb769c0c05f8712a3301479c4cf9f575b72bd"),
        (uri, 3, 10, "2f3ef437cc91656c8711f5c1823e91155469e3b23bd5f81bf331c2a5eecb54c9"),
        (String(repeating: "x", count: 400), 0, 15, "3ed4282a72f331b172e38681e01327892b9348ae87d214ff7c487caeccdf7d8b"),
        (String(repeating: "x", count: 400), 5, 15, "d8344f773afee5355da79cc2394e86c00342ce0629a7d8b3557cbde2ee1e972f"),
    ])
    func largerVersionsMatchTheReference(data: String, mask: Int, version: Int, digest: String) throws {
        let code = try QRCode.encode(Array(data.utf8), mask: mask)
        #expect(code.version == version)
        #expect(SHA256.hash(data: Array(Self.text(code).utf8)).map { String(format: "%02x", $0) }.joined() == digest)
    }

    /// Left to choose, the encoder picks the mask the reference picks.
    @Test(arguments: [
        (
            String(repeating: "é\u{0}<script>", count: 30), 13, 2,
            "75bd6a923da52a7786ee76d3446d2bc18165eca6c00cfea675bbd386d5449ebc"
        ),
        (
            String(repeating: "a", count: 2300), 40, 1,
            "4b274cc273b27a6c2a029531a9acab3655d88af3ef067071bc0466860b6bcdb1"
        ),
    ])
    func theMaskIsTheLowestPenalty(data: String, version: Int, mask: Int, digest: String) throws {
        let code = try QRCode.encode(Array(data.utf8))
        #expect(code.version == version)
        #expect(code.mask == mask)
        #expect(SHA256.hash(data: Array(Self.text(code).utf8)).map { String(format: "%02x", $0) }.joined() == digest)
    }

    @Test func tooMuchDataIsAnErrorNotACrash() {
        #expect(throws: QRCode.EncodeError.self) { try QRCode.encode([UInt8](repeating: 0x41, count: 2400)) }
    }
}
