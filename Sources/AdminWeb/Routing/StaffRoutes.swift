import AdminDomain
import Hummingbird

/// The only way to add a signed-in route: every route names the permission it needs, so
/// a route without one does not compile. A request outside the role gets a 403 page; the
/// refusals are counted per staff member, address, route and permission and written in
/// batches, so a thousand refused requests are one row, not a thousand write transactions. Every route is recorded for the route-by-role test and the table in docs/security.md.
/// A value: the areas add their routes to it in turn (`inout`), and its `entries` are read
/// once the router is built; nothing is shared while it is being filled.
struct StaffRoutes {
    struct Entry: Sendable, Equatable {
        let method: HTTPRequest.Method
        let path: String
        let permission: Permission
    }

    let group: RouterGroup<StaffRequestContext>
    /// Refusals are counted and written in batches (a role that keeps trying costs one row).
    let refusals: AuditAggregator
    /// Every route added so far, in order.
    private(set) var entries: [Entry] = []
    /// Each form's rule; a refused form is shown again, never handled.
    let forms: FormRules
    /// Forms kept while their sender signed in again, shown on their page once.
    let stash: FormStash
    let stashCookie: PanelCookie

    init(
        group: RouterGroup<StaffRequestContext>, refusals: AuditAggregator, forms: FormRules, stash: FormStash,
        stashCookie: PanelCookie
    ) {
        self.group = group
        self.refusals = refusals
        self.forms = forms
        self.stash = stash
        self.stashCookie = stashCookie
    }

    /// - Parameter query: the fields of the query string the route reads; any other is refused.
    mutating func get<Output: ResponseGenerator>(
        _ url: SiteURL, requires permission: Permission, query: [String] = [], repeatable: Set<String> = [],
        use handler: @escaping @Sendable (Request, StaffRequestContext) async throws -> Output
    ) {
        forms.add(FormRules.Rule(fields: query, repeatable: repeatable, afterSignIn: true), .get, url.path)
        add(.get, url, permission, handler)
    }

    /// - Parameters:
    ///   - fields: the fields its form sends (besides the CSRF token); any other is refused.
    ///   - form: its multi-line fields and labels, and how it is shown again when refused (a
    ///     broken escape, an unknown field, a control character, an out-of-date token, a
    ///     session that ended).
    mutating func post<Output: ResponseGenerator>(
        _ url: SiteURL, requires permission: Permission, fields: [String] = [], form: FormRules.Rule = FormRules.Rule(),
        use handler: @escaping @Sendable (Request, StaffRequestContext) async throws -> Output
    ) {
        var form = form
        form.fields += fields
        forms.add(form, .post, url.path)
        add(.post, url, permission, handler)
    }

    private mutating func add<Output: ResponseGenerator>(
        _ method: HTTPRequest.Method, _ url: SiteURL, _ permission: Permission,
        _ handler: @escaping @Sendable (Request, StaffRequestContext) async throws -> Output
    ) {
        // A URL with an id registers as its pattern: `.staffAction(id: nil, …)` is "/admins/:id/…".
        let entry = Entry(method: method, path: url.path, permission: permission)
        if !entries.contains(entry) { entries.append(entry) }
        let refusals = self.refusals
        let route = "\(method.rawValue) \(url.path)"
        let forms = forms
        let stash = stash
        let stashCookie = stashCookie
        group.on(RouterPath(url.path), method: method) { @Sendable request, context -> Response in
            guard context.identity.role.may(permission) else {
                await refusals.record(
                    .forbidden, actorEmail: context.identity.email, address: context.clientAddress,
                    target: String(request.uri.path.prefix(200)), reason: "\(permission.rawValue) for \(route)")
                throw HTTPError(.forbidden)
            }
            if method == .get {
                // The query is read once allowed in: signed out, a link leads to the sign-in page.
                let rule = forms.rule(.get, endpoint: context.endpointPath)
                if let sentence = request.queryFields.problem(known: Set(rule.fields), repeatable: rule.repeatable) {
                    throw PanelError(status: .badRequest, sentence: sentence)
                }
            }
            if let refusal = context.formRefusal {
                // Refused on its way here: shown again with what was typed, never carried out.
                guard let showAgain = forms.rule(method, endpoint: context.endpointPath).showAgain else {
                    throw PanelError(status: refusal.status, sentence: refusal.sentence)
                }
                return try await showAgain(try await request.formFields(upTo: context.maxUploadSize), refusal, context)
            }
            if method == .get, let key = stashCookie.token(in: request), !key.isEmpty,
                let kept = await stash.take(key, page: request.uri.path),
                let showAgain = forms.rule(key: kept.route)?.showAgain
            {
                // Back after signing in again: the form sent when the session had ended, filled in.
                var response = try await showAgain(kept.form, .sessionEnded, context)
                response.setCookie(stashCookie.expired)
                return response
            }
            return try await handler(request, context).response(from: request, context: context)
        }
    }
}
