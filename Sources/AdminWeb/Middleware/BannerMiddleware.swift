import Hummingbird

/// Puts the panel's banner (the demo's "pushes go to the simulator") on every page it
/// renders, signed in or not, error pages included: the page layout reads it from here.
struct BannerMiddleware: RouterMiddleware {
    typealias Context = PanelRequestContext
    let text: String?

    /// A task-local rather than a field of every model: it is the same for every page of
    /// one running panel, and tests run several panels in one process.
    @TaskLocal static var current: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard let text else { return try await next(request, context) }
        return try await Self.$current.withValue(text) { try await next(request, context) }
    }
}
