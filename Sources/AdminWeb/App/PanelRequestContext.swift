import AdminDomain
import Hummingbird

/// Every request's context. `identity` is filled by `RequireStaffMiddleware`.
public struct PanelRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    public var identity: StaffIdentity?
    public var sessionToken: String?
    /// The TCP peer, or behind a trusted proxy the client it names (`ClientAddressMiddleware`).
    public internal(set) var clientAddress: String?
    /// The scheme a trusted proxy says the client used (`ClientAddressMiddleware`), if it says.
    var forwardedScheme: String?
    /// Shared with the request log, which runs outside the middleware that signs in.
    public let notes = RequestNotes()
    /// Set by the middleware that refused this form (`CSRFMiddleware`, `FormTextMiddleware`):
    /// the route shows the form again instead of carrying it out.
    var formRefusal: FormRefusal?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        clientAddress = source.channel.remoteAddress?.ipAddress
    }

    /// Forms here are a few fields; anything larger is refused with 413.
    public var maxUploadSize: Int { 64 * 1024 }
}

/// The context of routes behind sign-in: the identity is there, not optional.
public struct StaffRequestContext: ChildRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let identity: StaffIdentity
    public let sessionToken: String
    public let clientAddress: String?
    /// A refused form: `StaffRoutes` shows it again and never calls the handler.
    let formRefusal: FormRefusal?

    public init(context: PanelRequestContext) throws {
        guard let identity = context.identity, let token = context.sessionToken else {
            throw HTTPError(.unauthorized)
        }
        coreContext = context.coreContext
        self.identity = identity
        sessionToken = token
        clientAddress = context.clientAddress
        formRefusal = context.formRefusal
    }

    public var maxUploadSize: Int { 64 * 1024 }

    /// Who is looking, and the token their forms must carry.
    var viewer: Viewer {
        Viewer(identity: identity, csrfToken: CSRFToken.forSession(sessionToken))
    }
}

/// What a signed-in page needs to know of the person viewing it.
struct Viewer {
    let identity: StaffIdentity
    let csrfToken: String
}
