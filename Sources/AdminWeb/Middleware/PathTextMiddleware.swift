import AdminDomain
import Foundation
import Hummingbird

/// Refuses a path that holds a control character, raw or percent-encoded (NUL, the other C0
/// controls, DEL, C1), with a 400 page and a sentence, on every route, static files and
/// unknown pages included: `/static/css/app.css%00.js` was served as the CSS under a
/// script's type, since the file lookup stopped at the NUL. No address of the panel holds one.
struct PathTextMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let raw = request.uri.path
        // The one reader's decoding (a "+" as a space changes nothing here); a broken escape
        // leaves the path as sent, which is checked as it is.
        let decoded = FormFields.decode(Substring(raw)) ?? raw
        if let scalar = TypedText.controlCharacter(in: decoded) ?? TypedText.controlCharacter(in: raw) {
            throw PanelError(
                status: .badRequest,
                sentence: "This address holds a control character (\(TypedText.codePoint(scalar))), which no page "
                    + "of the panel has, so nothing was opened. Check the link.")
        }
        return try await next(request, context)
    }
}
