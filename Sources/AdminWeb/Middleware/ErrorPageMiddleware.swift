import Hummingbird
import Logging

/// Turns every error into a plain page with a status and a sentence: never a stack trace,
/// a SQL message or a file path. Unexpected errors are logged with the request id.
struct ErrorPageMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            return ErrorView(status: error.status, requestID: context.id).response()
        } catch let error as any HTTPResponseError {
            return ErrorView(status: error.status, requestID: context.id).response()
        } catch {
            context.logger.error("request failed", metadata: ["error": "\(String(reflecting: error))"])
            return ErrorView(status: .internalServerError, requestID: context.id).response()
        }
    }
}
