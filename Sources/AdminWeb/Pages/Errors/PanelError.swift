import Hummingbird

/// An error whose sentence the panel wrote itself, so the error page may show it ("No user
/// #5."). Other errors' messages are never shown: they may name internals.
struct PanelError: HTTPResponseError {
    let status: HTTPResponse.Status
    let sentence: String
    /// Sent as `Retry-After`: a refusal that passes (an export too many, figures being counted).
    var retryAfterSeconds: Int?

    init(status: HTTPResponse.Status, sentence: String, retryAfterSeconds: Int? = nil) {
        self.status = status
        self.sentence = sentence
        self.retryAfterSeconds = retryAfterSeconds
    }

    static func notFound(_ sentence: String) -> PanelError {
        PanelError(status: .notFound, sentence: sentence)
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: status)
    }
}
