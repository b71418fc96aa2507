/// Single-use recovery codes: 24 characters of Crockford's base32 (120 bits). At 112 bits
/// or more ASVS 5.0 (6.5.2) allows a plain hash, so a code is checked in microseconds and
/// the table holds only SHA-256 digests.
public enum RecoveryCode {
    public static let countPerSet = 10
    static let alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz")
    static let length = 24

    /// Shown as four groups of six, easier to copy by hand.
    public static func generate() -> String {
        var rng = SystemRandomNumberGenerator()
        let characters = (0..<length).map { _ in alphabet.randomElement(using: &rng)! }
        return stride(from: 0, to: length, by: 6).map { String(characters[$0..<$0 + 6]) }.joined(separator: "-")
    }

    /// What was typed, as stored: any case, with or without dashes and spaces, and the
    /// letters people mistake for digits read as those digits.
    public static func normalized(_ typed: String) -> String? {
        var result = ""
        for character in typed.lowercased() {
            switch character {
            case "-", " ", "\t": continue
            case "o": result.append("0")
            case "i", "l": result.append("1")
            case let c where alphabet.contains(c): result.append(c)
            default: return nil
            }
        }
        return result.count == length ? result : nil
    }

    static func hash(normalized code: String) -> String {
        SecureToken.sha256Hex("panel-recovery\0" + code)
    }
}
