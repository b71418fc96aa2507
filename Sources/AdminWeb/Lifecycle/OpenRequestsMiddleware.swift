import Hummingbird

/// Records each request in `OpenRequests` until its handler returns.
struct OpenRequestsMiddleware<Context: RequestContext>: RouterMiddleware {
    let openRequests: OpenRequests

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let key = openRequests.begin(requestID: context.id, method: request.method.rawValue, path: request.uri.path)
        defer { openRequests.end(key) }
        return try await next(request, context)
    }
}
