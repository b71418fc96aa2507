import AdminDomain

struct LoginModel {
    var csrfToken: String
    var email: String = ""
    var next: String?
    var error: String?
}
