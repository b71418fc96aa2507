import AdminDomain

/// Passwords the panel makes for a new or reset account, shown once to whoever set it up.
public enum GeneratedPassword {
    /// 24 lower-case letters and digits without look-alikes (no 0/o, 1/l/i): about 117 bits,
    /// drawn again in the rare case the policy refuses it (say, it spells the email's name).
    /// Lower case only, so that the one-time password in capitals or spaced out folds back to
    /// it, and is refused as the new password as it is (`AdminStore.foldedOneTime`).
    public static func make(for email: String) async -> String {
        let alphabet = Array("abcdefghjkmnpqrstuvwxyz23456789")
        var rng = SystemRandomNumberGenerator()
        while true {
            let password = String((0..<24).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] })
            if await PasswordPolicy.problem(with: password, email: email) == nil { return password }
        }
    }
}
