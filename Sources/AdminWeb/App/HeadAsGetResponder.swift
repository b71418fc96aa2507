import Hummingbird

/// HEAD as HTTP says: the GET route's status and headers, and no body. Routes are registered
/// for GET only, and the router picks a route by method before any middleware runs, so HEAD
/// becomes GET here, in front of the router.
struct HeadAsGetResponder<Next: HTTPResponder>: HTTPResponder where Next.Context == PanelRequestContext {
    let next: Next

    func respond(to request: Request, context: PanelRequestContext) async throws -> Response {
        guard request.method == .head else { return try await next.respond(to: request, context: context) }
        var head = request.head
        head.method = .get
        var response = try await next.respond(to: Request(head: head, body: request.body), context: context)
        // The length a GET would have is kept, so a client can tell what it would get (the
        // body's setter would write 0).
        let length = response.headers[.contentLength]
        response.body = ResponseBody()
        response.headers[.contentLength] = length
        return response
    }
}
