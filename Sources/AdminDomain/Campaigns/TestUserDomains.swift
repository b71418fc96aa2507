/// The email domains marketing may add test users from (`--test-user-domain`): the staff's
/// own, so that a test send reaches a colleague's phone, never a customer's. None: only
/// admins add test users.
public struct TestUserDomains: Sendable, Equatable {
    /// Lower case, in the order given, each once.
    public let names: [String]

    public static let none = TestUserDomains(validated: [])

    private init(validated names: [String]) {
        self.names = names
    }

    /// Refuses, with a sentence, a name that is not a domain such as `corp.example.com`.
    public init(_ given: [String]) throws(CampaignError) {
        var names: [String] = []
        for name in given {
            if let problem = Self.problem(with: name) { throw CampaignError(problem) }
            let lower = Self.asciiLowercased(name)
            if !names.contains(lower) { names.append(lower) }
        }
        self.names = names
    }

    public var isEmpty: Bool { names.isEmpty }

    /// Whether the email's domain (after its last `@`) is one of these, exactly: a subdomain is
    /// another domain. Only ASCII letters fold, as SQLite's NOCASE does when the email is looked
    /// up: a character that lower-cases to ASCII (the Kelvin sign to `k`) is not let through.
    public func contains(email: String) -> Bool {
        guard let at = email.lastIndex(of: "@") else { return false }
        return names.contains(Self.asciiLowercased(String(email[email.index(after: at)...])))
    }

    /// "corp.example.com", "corp.example.com or example.org", "a.test, b.test or c.test".
    public var sentence: String {
        names.count <= 1 ? names.first ?? "" : names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    }

    /// Why `name` is not a domain: labels of ASCII letters, digits and inner hyphens (1 to 63
    /// each, 253 in all), at least two of them, the last not all digits. An internationalised
    /// domain is given in its `xn--` form.
    static func problem(with name: String) -> String? {
        let shown = String(
            name.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) }.prefix(80))
        let sentence = "--test-user-domain \"\(shown)\" is not a domain, such as corp.example.com"
        if name.hasPrefix("@") { return sentence + " (without the @)" }
        guard !name.isEmpty, name.utf8.count <= 253, name.unicodeScalars.allSatisfy(\.isASCII) else {
            return sentence
                + (name.unicodeScalars.allSatisfy(\.isASCII) ? "" : " (an internationalised domain in its xn-- form)")
        }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return sentence }
        for label in labels {
            guard (1...63).contains(label.count), label.first != "-", label.last != "-",
                label.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" })
            else { return sentence }
        }
        if labels.last?.allSatisfy(\.isNumber) == true { return sentence + " (an address is not a domain)" }
        return nil
    }

    static func asciiLowercased(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { (0x41...0x5A).contains($0.value) ? Unicode.Scalar($0.value + 32)! : $0 }))
    }
}
