import AdminDomain

struct PasswordModel {
    var notice: String?
    var error: String?
}
