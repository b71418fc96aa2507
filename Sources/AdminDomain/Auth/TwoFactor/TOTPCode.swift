import Crypto
import Foundation

/// RFC 6238 codes: six digits, 30-second steps, HMAC-SHA1, the parameters every
/// authenticator app understands; the HMAC is swift-crypto's, the truncation RFC 4226's.
public enum TOTPCode {
    /// The HMAC behind the code; apps use SHA-1, the RFC's test vectors all three.
    public enum Hash: Sendable {
        case sha1, sha256, sha512
    }

    public static let digits = 6
    public static let timeStep: TimeInterval = 30
    /// One step either side of now: a phone clock a little off, or a code typed as it turned.
    static let window: Int64 = 1

    public static func step(at date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / timeStep).rounded(.down))
    }

    /// The code for one time step, zero-padded.
    public static func code(secret: String, step: Int64, digits: Int = digits, hash: Hash = .sha1) -> String {
        let key = SymmetricKey(data: Array(secret.utf8))
        let counter = withUnsafeBytes(of: UInt64(bitPattern: step).bigEndian) { Array($0) }
        let mac: [UInt8] =
            switch hash {
            case .sha1: Array(HMAC<Insecure.SHA1>.authenticationCode(for: counter, using: key))
            case .sha256: Array(HMAC<SHA256>.authenticationCode(for: counter, using: key))
            case .sha512: Array(HMAC<SHA512>.authenticationCode(for: counter, using: key))
            }
        // RFC 4226 dynamic truncation: four bytes from the offset the last nibble names.
        let offset = Int(mac[mac.count - 1] & 0x0f)
        let value =
            (UInt32(mac[offset] & 0x7f) << 24) | (UInt32(mac[offset + 1]) << 16)
            | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let text = String(value % modulus)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// The step whose code `typed` is, within the window around `now`; nil for a wrong code.
    /// Every step in the window is computed and compared, so timing does not say which matched.
    public static func matchingStep(_ typed: String, secret: String, now: Date) -> Int64? {
        let typed = Array(typed.filter { !$0.isWhitespace }.utf8)
        guard typed.count == digits, typed.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return nil
        }
        let current = step(at: now)
        var found: Int64?
        for step in (current - window)...(current + window) {
            if SecureToken.constantTimeEquals(Array(code(secret: secret, step: step).utf8), typed), found == nil {
                found = step
            }
        }
        return found
    }

    /// A new key: 32 characters of the base32 alphabet (160 bits). HMAC is keyed with the
    /// secret's UTF-8 bytes (as HummingbirdOTP, used before, did), so it is kept as text.
    public static func newSecret() -> String {
        var rng = SystemRandomNumberGenerator()
        return String((0..<32).map { _ in Base32.alphabet.randomElement(using: &rng)! })
    }

    /// The key as authenticator apps take it when typed in: base32 of its bytes.
    public static func displayedSecret(_ secret: String) -> String {
        Base32.encode(Array(secret.utf8))
    }

    /// The `otpauth://` address a QR code carries.
    public static func provisioningURI(secret: String, account: String, issuer: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~@")
        let label = "\(issuer):\(account)".addingPercentEncoding(withAllowedCharacters: allowed) ?? account
        let issuerParameter = issuer.addingPercentEncoding(withAllowedCharacters: allowed) ?? issuer
        return "otpauth://totp/\(label)?secret=\(displayedSecret(secret))&issuer=\(issuerParameter)"
            + "&algorithm=SHA1&digits=\(digits)&period=\(Int(timeStep))"
    }
}

/// RFC 4648 base32 without padding, as authenticator apps read keys.
enum Base32 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")

    static func encode(_ bytes: [UInt8]) -> String {
        var output = ""
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                output.append(alphabet[Int((buffer >> UInt32(bits - 5)) & 31)])
                bits -= 5
            }
        }
        if bits > 0 {
            output.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)])
        }
        return output
    }
}
