import AdminDomain

/// Passwords the panel makes for a new or reset account, shown once to whoever set it up.
public enum GeneratedPassword {
    /// 20 characters from an alphabet without look-alikes (no 0/O, 1/l/I): about 116 bits,
    /// drawn again in the rare case the policy refuses it (say, it spells the email's name).
    public static func make(for email: String) async -> String {
        let alphabet = Array("abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        var rng = SystemRandomNumberGenerator()
        while true {
            let password = String((0..<20).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] })
            if await PasswordPolicy.problem(with: password, email: email) == nil { return password }
        }
    }
}
