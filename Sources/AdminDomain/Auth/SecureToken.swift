import Crypto
import Foundation

/// Random tokens, their hashes and comparisons: the pieces sessions and forms share.
public enum SecureToken {
    /// `byteCount` random bytes as base64url without padding (32 bytes: 43 characters).
    public static func random(byteCount: Int = 32) -> String {
        var rng = SystemRandomNumberGenerator()
        return base64URL((0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &rng) })
    }

    /// The shape `random()` produces (43 base64url characters); anything else is not ours.
    public static func isWellFormed(_ token: String) -> Bool {
        token.utf8.count == 43
            && token.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: "_")
            }
    }

    /// A value bound to `token` for one `purpose`, from which `token` cannot be recovered.
    public static func derived(from token: String, purpose: String) -> String {
        base64URL(SHA256.hash(data: Array("\(purpose)\0\(token)".utf8)))
    }

    public static func sha256Hex(_ text: String) -> String {
        SHA256.hash(data: Array(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Compares every byte whatever the first difference, so timing says nothing of where it is.
    public static func constantTimeEquals(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }

    static func base64URL(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
