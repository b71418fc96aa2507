import Hummingbird

/// Who is asking: the TCP peer, or behind a trusted proxy the client that proxy names. Runs
/// first, so that throttling, the audit log and the request log all see the same address.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = PanelRequestContext
    let trusted: TrustedProxies

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard !trusted.isEmpty else { return try await next(request, context) }
        var context = context
        context.forwardedScheme = trusted.forwardedScheme(peer: context.clientAddress, headers: request.headers)
        context.clientAddress = trusted.clientAddress(peer: context.clientAddress, headers: request.headers)
        return try await next(request, context)
    }
}
