import AdminDomain
import Hummingbird

/// The only way to add a signed-in route: every route names the permission it needs, so
/// a route without one does not compile. A request outside the role gets a 403 page; the
/// refusals are counted per staff member, address, route and permission and written in
/// batches, so a thousand refused requests are one row, not a thousand write transactions.
/// Every route is recorded for the route-by-role test and the table in docs/security.md.
/// A value: the areas add their routes and their forms' rules to it in turn (`inout`); once
/// all are in, the middlewares are handed the complete `forms` and the routes are registered
/// behind them (`register(on:)`). Nothing is shared while it is being filled.
struct StaffRoutes {
    struct Entry: Sendable, Equatable {
        let method: HTTPRequest.Method
        let path: String
        let permission: Permission
    }

    typealias Handler = @Sendable (Request, StaffRequestContext) async throws -> Response

    /// Refusals are counted and written in batches (a role that keeps trying costs one row).
    let refusals: AuditAggregator
    /// Every route added so far, in order.
    private(set) var entries: [Entry] = []
    /// Each form's rule, the sign-in pages' too; a refused form is shown again, never handled.
    var forms = FormRules()
    /// Forms kept while their sender signed in again, shown on their page once.
    let stash: FormStash
    let stashCookie: PanelCookie
    /// Every route whose path ends in `.csv` takes one of these while its file is written.
    let exports: ExportLimits
    private var handlers: [(entry: Entry, handler: Handler)] = []

    init(refusals: AuditAggregator, stash: FormStash, stashCookie: PanelCookie, exports: ExportLimits) {
        self.refusals = refusals
        self.stash = stash
        self.stashCookie = stashCookie
        self.exports = exports
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
        handlers.append((entry, { try await handler($0, $1).response(from: $0, context: $1) }))
    }

    /// Adds every route to `group`, each reading the complete `forms`.
    func register(on group: RouterGroup<StaffRequestContext>) {
        for (entry, handler) in handlers {
            register(entry, handler, on: group)
        }
    }

    private func register(_ entry: Entry, _ handler: @escaping Handler, on group: RouterGroup<StaffRequestContext>) {
        let (method, permission) = (entry.method, entry.permission)
        let refusals = refusals
        let route = "\(method.rawValue) \(entry.path)"
        let forms = forms
        let stash = stash
        let stashCookie = stashCookie
        let exports = method == .get && entry.path.hasSuffix(".csv") ? exports : nil
        group.on(RouterPath(entry.path), method: method) { @Sendable request, context -> Response in
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
            guard let exports else { return try await handler(request, context) }
            // An export: refused at once beyond its bounds; its file written in the export lane,
            // the slot given back at its end (issue 46).
            let slot = try exports.take(for: context.identity.adminID)
            var response = try await handler(request, context)
            response.body = slot.wrap(response.body)
            return response
        }
    }
}
