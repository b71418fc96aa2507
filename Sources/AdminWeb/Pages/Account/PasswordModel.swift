import AdminDomain

struct PasswordModel {
    var notice: String?
    /// Every refusal of the submission, at once.
    var errors: [String] = []
}
