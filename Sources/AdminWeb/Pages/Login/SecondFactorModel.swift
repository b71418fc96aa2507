import AdminDomain

struct SecondFactorModel {
    var csrfToken: String
    var next: String?
    var error: String?
}
