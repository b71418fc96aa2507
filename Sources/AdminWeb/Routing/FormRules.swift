import AdminDomain
import Hummingbird

/// What the panel knows of each form and query string it accepts, by route: the fields it
/// reads (any other is refused), which may hold line breaks, what a sentence calls each
/// field, and how the form is shown again when it is refused (a broken escape, an unknown
/// field, a control character, an out-of-date token, a session that ended). A value, filled
/// with the routes (`StaffRoutes.forms`) and handed complete to the middlewares that every
/// request passes through.
struct FormRules: Sendable {
    /// Renders the form again with what was typed and the refusal's sentence, under the
    /// signed-in person's fresh token. It only shows: nothing is carried out.
    typealias ShowAgain = @Sendable (FormFields, FormRefusal, StaffRequestContext) async throws -> Response

    struct Rule: Sendable {
        /// The fields the route reads: a POST's form (the CSRF token is known to every
        /// form), a GET's query string. Any other field is refused with a sentence.
        var fields: [String] = []
        /// Fields that may come more than once (a GET's repeated `range`); any other sent
        /// twice is refused.
        var repeatable: Set<String> = []
        /// A signed-in page's query is read after sign-in (`StaffRoutes`): signed out, any
        /// link to it leads to the sign-in page, and back to the link after.
        var afterSignIn = false
        /// Fields that are text areas: tabs and line breaks are text there.
        var multiLine: Set<String> = []
        /// How a sentence names a field, beyond `commonLabels`.
        var labels: [String: String] = [:]
        var showAgain: ShowAgain?
        /// The sign-in forms read `formRefusal` themselves and show their page again.
        var readsRefusal = false
        /// The page the form is on, from the path it posts to, when that is not the page
        /// itself (the staff page for "/admins/create"): where signing in again leads back to.
        var page: (@Sendable (_ postedTo: String) -> String)?

        /// The route shows a refusal with the form rather than an error page.
        var showsRefusal: Bool { readsRefusal || showAgain != nil }
    }

    /// Field names most forms share.
    static let commonLabels = [
        "email": "the email", "password": "the password", "current": "the current password",
        "repeat": "the repeated password",
        "role": "the role", "code": "the code", "next": "the page to return to", "user": "the test user",
        "typed_count": "the number of devices", "key": "the lock", "variant": "the variant", "range": "the range",
    ]

    private var rules: [String: Rule] = [:]

    /// Fields the route reads in the query and the form; the CSRF token is in every form.
    static func known(_ rule: Rule, method: HTTPRequest.Method) -> Set<String> {
        method == .get ? Set(rule.fields) : Set(rule.fields + [CSRFToken.fieldName])
    }

    mutating func add(_ rule: Rule, _ method: HTTPRequest.Method, _ path: String) {
        rules[Self.key(method, RouterPath(path).description)] = rule
    }

    /// The rule of the route a request was routed to (`context.endpointPath`); a route
    /// without one refuses with an error page and has no multi-line field.
    func rule(_ method: HTTPRequest.Method, endpoint: String?) -> Rule {
        endpoint.flatMap { rules[Self.key(method, $0)] } ?? Rule()
    }

    func rule(key: String) -> Rule? {
        rules[key]
    }

    static func key(_ method: HTTPRequest.Method, _ endpoint: String) -> String {
        "\(method.rawValue) \(endpoint)"
    }

    /// The sentence refusing the first field that holds a control character, or nil.
    static func controlProblem(in form: FormFields, rule: Rule) -> String? {
        controlField(in: form, rule: rule)?.sentence
    }

    /// The first field that holds a control character, and the sentence refusing it: a form
    /// shown again marks that field.
    static func controlField(in form: FormFields, rule: Rule) -> (name: String, sentence: String)? {
        for (name, value) in form.list.map({ ($0.name, $0.value) }) where name != CSRFToken.fieldName {
            let label =
                rule.labels[name] ?? commonLabels[name] ?? "the field “\(TypedText.trimmed(name.prefix(40)))”"
            if let problem = TypedText.controlProblem(label, in: value, multiLine: rule.multiLine.contains(name)) {
                return (name, "Nothing was sent: \(problem). Remove it and send the form again.")
            }
        }
        return nil
    }
}
