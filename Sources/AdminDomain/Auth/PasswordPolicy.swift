import Foundation

/// What a staff password must be: 12 to 128 characters after NFKC normalisation, any
/// Unicode, not one of the 30,000 most used passwords nor one of them with digits and
/// symbols added ("password1234", "!Qwerty123"), and not built on the words an attacker
/// would try first for this panel and this person.
public enum PasswordPolicy {
    public static let minimumLength = 12
    public static let maximumLength = 128
    /// Context words (ASVS 6.1.2), compared with letters and digits only: the product and
    /// the panel. The account's email address and its local part are added per account.
    public static let contextWords = ["expirytracker", "expiry tracker", "admin panel", "adminpanel"]

    /// nil when acceptable; otherwise a sentence to show the person choosing it.
    public static func problem(with password: String, email: String? = nil) async -> String? {
        // The first use reads the list from disk: off the cooperative pool.
        let commonPasswords = try? await BlockingWork.run { Self.commonPasswords }
        let normalized = password.precomposedStringWithCompatibilityMapping
        if normalized.count < minimumLength { return "the password must have at least \(minimumLength) characters" }
        if normalized.count > maximumLength { return "the password must have at most \(maximumLength) characters" }
        guard let commonPasswords = commonPasswords ?? nil else {
            // Without the list nothing can be checked: refuse rather than accept blindly.
            return "the list of common passwords could not be read, so no password can be set now"
        }
        let lower = normalized.lowercased()
        if commonPasswords.contains(lower) {
            return "that password is one of the 30,000 most used: choose another"
        }
        // The simple variants an attacker tries first: any case, digits and symbols around.
        let core = lower.trimmingCharacters(in: Self.padding)
        if core.count >= 4, commonPasswords.contains(core) {
            return "that password is a much-used one (“\(core)”) with digits or symbols added: choose another"
        }
        if Set(core).count <= 2 {
            return "that password is little more than one character repeated: choose another"
        }
        let letters = alphanumerics(normalized)
        var words = contextWords
        if let email {
            words.append(email)
            let local = String(email.prefix { $0 != "@" })
            if alphanumerics(local).count >= 4 { words.append(local) }
        }
        if words.map(alphanumerics).contains(where: { !$0.isEmpty && letters.contains($0) }) {
            return "the password must not contain the panel's name or your email address"
        }
        return nil
    }

    private static func alphanumerics(_ text: String) -> String {
        String(text.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) })
    }

    /// Digits, punctuation, symbols and spaces: what people add to a common word.
    static let padding = CharacterSet.decimalDigits.union(.punctuationCharacters).union(.symbols).union(.whitespaces)

    /// The 30,000 most used passwords, lower case, most used first (zxcvbn 4.5.0's ranked
    /// `passwords` list from the Xato corpus, MIT licence).
    static let commonPasswords: Set<String>? = {
        guard let url = Bundle.module.url(forResource: "common-passwords", withExtension: "txt"),
              let text = try? String(contentsOf: url, encoding: .utf8)
        else { return nil }
        return Set(text.split(separator: "\n").map { $0.lowercased() })
    }()
}
