import AdminDomain
import Hummingbird

/// Reads every routed request's query string and every POST's form with the one reader
/// (`FormFields`) before any route does, and refuses, with a sentence naming the field:
/// a broken escape, a field the route does not read (`FormRules.Rule.fields`), a field it
/// reads once sent twice, and a control character (NUL, the other C0 controls, DEL, C1;
/// tabs and line breaks only in multi-line fields: SQLite stored "a\0b" as "a", and the
/// audit row with it). Runs after the CSRF check. A POST route that shows its form again
/// gets the sentence on the context (`formRefusal`) and shows what was typed; anything else
/// is a 400 page. Either way nothing is carried out.
struct FormTextMiddleware: RouterMiddleware {
    typealias Context = PanelRequestContext
    let forms: FormRules

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        // Routes the panel does not declare (static files, /health, a 404) read no fields.
        guard let endpoint = context.endpointPath, let rule = forms.rule(key: FormRules.key(request.method, endpoint))
        else {
            return try await next(request, context)
        }
        // A form's own action carries no query: a POST reads its fields from the body only.
        // A signed-in page's query is read after sign-in (`StaffRoutes`).
        if !rule.afterSignIn,
            let sentence = request.queryFields.problem(
                known: request.method == .get ? Set(rule.fields) : [],
                repeatable: rule.repeatable)
        {
            throw PanelError(status: .badRequest, sentence: sentence)
        }
        guard request.method == .post else { return try await next(request, context) }
        var request = request
        let form = FormFields(String(buffer: try await request.collectBody(upTo: context.maxUploadSize)))
        let problem = form.problem(known: FormRules.known(rule, method: .post), repeatable: rule.repeatable)
        guard let sentence = problem ?? FormRules.controlProblem(in: form, rule: rule) else {
            return try await next(request, context)
        }
        guard rule.showsRefusal else { throw PanelError(status: .badRequest, sentence: sentence) }
        var context = context
        // An out-of-date token is said first; sent again, the text is checked again.
        if context.formRefusal == nil { context.formRefusal = .badField(sentence) }
        return try await next(request, context)
    }
}
