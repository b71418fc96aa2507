import Foundation

/// What a staff password must be: 12 to 128 characters after NFKC normalisation, any
/// Unicode, and not one of the 10,000 most common passwords.
public enum PasswordPolicy {
    public static let minimumLength = 12
    public static let maximumLength = 128

    /// nil when acceptable; otherwise a sentence to show the person choosing it.
    public static func problem(with password: String) -> String? {
        let normalized = password.precomposedStringWithCompatibilityMapping
        if normalized.count < minimumLength { return "the password must have at least \(minimumLength) characters" }
        if normalized.count > maximumLength { return "the password must have at most \(maximumLength) characters" }
        guard let commonPasswords else {
            // Without the list nothing can be checked: refuse rather than accept blindly.
            return "the list of common passwords could not be read, so no password can be set now"
        }
        if commonPasswords.contains(normalized.lowercased()) {
            return "that password is one of the 10,000 most common: choose another"
        }
        return nil
    }

    /// The 10,000 most common passwords, lower case (zxcvbn's frequency list, MIT licence).
    static let commonPasswords: Set<String>? = {
        guard let url = Bundle.module.url(forResource: "common-passwords", withExtension: "txt"),
              let text = try? String(contentsOf: url, encoding: .utf8)
        else { return nil }
        return Set(text.split(separator: "\n").map { $0.lowercased() })
    }()
}
