import AdminDomain
import Hummingbird

/// The only way to add a signed-in route: every route names the permission it needs, so
/// a route without one does not compile. A request outside the role gets a 403 page and
/// an audit row. Every route is recorded for the route-by-role test and the README table.
struct StaffRoutes {
    struct Entry: Sendable, Equatable {
        let method: HTTPRequest.Method
        let path: String
        let permission: Permission
    }

    /// Collects the routes as they are added.
    final class Registry: @unchecked Sendable {
        private(set) var entries: [Entry] = []
        func add(_ entry: Entry) {
            if !entries.contains(entry) { entries.append(entry) }
        }
    }

    let group: RouterGroup<StaffRequestContext>
    let services: PanelServices
    let registry: Registry

    func get<Output: ResponseGenerator>(
        _ url: SiteURL, requires permission: Permission,
        use handler: @escaping @Sendable (Request, StaffRequestContext) async throws -> Output
    ) {
        add(.get, url, permission, handler)
    }

    func post<Output: ResponseGenerator>(
        _ url: SiteURL, requires permission: Permission,
        use handler: @escaping @Sendable (Request, StaffRequestContext) async throws -> Output
    ) {
        add(.post, url, permission, handler)
    }

    private func add<Output: ResponseGenerator>(
        _ method: HTTPRequest.Method, _ url: SiteURL, _ permission: Permission,
        _ handler: @escaping @Sendable (Request, StaffRequestContext) async throws -> Output
    ) {
        // A URL with an id registers as its pattern: `.staffAction(id: nil, …)` is "/admins/:id/…".
        registry.add(Entry(method: method, path: url.path, permission: permission))
        let audit = services.signIn.audit
        group.on(RouterPath(url.path), method: method) { @Sendable request, context in
            guard context.identity.role.may(permission) else {
                try await audit.append(AuditEntry(
                    actor: context.identity, clientAddress: context.clientAddress, action: .forbidden,
                    target: String(request.uri.path.prefix(200)), detail: permission.rawValue))
                throw HTTPError(.forbidden)
            }
            return try await handler(request, context)
        }
    }
}
