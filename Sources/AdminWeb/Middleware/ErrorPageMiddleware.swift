import AdminDomain
import Hummingbird
import Logging

/// Turns every error into a page with a status and a sentence: never a stack trace, a SQL
/// message or a file path. Unexpected errors are logged with the request id. A signed-in
/// person keeps the navigation and the sign-out button: the session is looked up again
/// here, for error pages only, since this runs outside the signed-in routes.
struct ErrorPageMiddleware: RouterMiddleware {
    typealias Context = PanelRequestContext
    let sessionCookie: PanelCookie
    let sessions: SessionStore

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let status: HTTPResponse.Status
        var specific: String?
        var retryAfter: Int?
        do {
            return try await next(request, context)
        } catch let error as PanelError {
            (status, specific, retryAfter) = (error.status, error.sentence, error.retryAfterSeconds)
        } catch let error as any HTTPResponseError {
            status = error.status
        } catch {
            context.logger.error("request failed", metadata: ["error": "\(String(reflecting: error))"])
            status = .internalServerError
        }
        var page = ErrorView(status: status, requestID: context.id, specific: specific)
        // Figures being counted: the page asks again by itself (a refusal, 429, never does).
        let asked = request.uri.description
        if status == .serviceUnavailable, request.method == .get, let retryAfter, asked.hasPrefix("/"),
            !asked.hasPrefix("//")
        {
            page.retry = (retryAfter, asked)
        }
        page.viewer = await viewer(request)
        var response = page.response()
        if let retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        return response
    }

    private func viewer(_ request: Request) async -> Viewer? {
        guard let token = sessionCookie.token(in: request),
            let identity = try? await sessions.identity(forToken: token)
        else { return nil }
        return Viewer(identity: identity, csrfToken: CSRFToken.forSession(token))
    }
}
