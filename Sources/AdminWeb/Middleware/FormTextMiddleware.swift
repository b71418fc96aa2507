import AdminDomain
import Hummingbird

/// Refuses a form any of whose fields holds a control character (NUL, the other C0
/// controls, DEL, C1), except tabs and line breaks in a route's multi-line fields: SQLite
/// stored "a\0b" as "a", and the audit row with it. Every POST passes here, after the CSRF
/// check, before any route reads its form. A route that shows its form again gets the
/// sentence on the context (`formRefusal`) and shows what was typed; any other is answered
/// with an error page. Either way nothing is carried out.
struct FormTextMiddleware: RouterMiddleware {
    typealias Context = PanelRequestContext
    let forms: FormRules

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard [.post, .put, .patch, .delete].contains(request.method) else {
            return try await next(request, context)
        }
        var request = request
        let body = try await request.collectBody(upTo: context.maxUploadSize)
        let rule = forms.rule(request.method, endpoint: context.endpointPath)
        guard let sentence = FormRules.controlProblem(in: PostedForm(String(buffer: body)), rule: rule) else {
            return try await next(request, context)
        }
        guard rule.showsRefusal else { throw PanelError(status: .badRequest, sentence: sentence) }
        var context = context
        // An out-of-date token is said first; sent again, the text is checked again.
        if context.formRefusal == nil { context.formRefusal = .controlCharacter(sentence) }
        return try await next(request, context)
    }
}
