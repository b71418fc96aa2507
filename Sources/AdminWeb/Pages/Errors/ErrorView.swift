import HTMLRender
import Hummingbird

/// What a person sees when something goes wrong: the status, a plain sentence, and the
/// request id to quote to whoever reads the logs. Never an internal message.
struct ErrorView: HTMLComponent {
    let status: HTTPResponse.Status
    let requestID: String
    /// Signed in: the page keeps the navigation and the sign-out button.
    var viewer: Viewer?
    /// The panel's own sentence for this error, when it has one.
    var specific: String?
    /// A page not ready yet (503, figures being counted): it asks again by itself after these
    /// seconds, and offers to at once; `href` is the address asked for.
    var retry: (seconds: Int, href: String)?

    var sentence: String {
        if let specific { return specific }
        return switch status.code {
        case 400: "The request could not be understood. Check what was typed and try again."
        case 401, 403: "You do not have access to this page."
        case 404: "There is no page at this address."
        case 405: "This address does not accept that kind of request."
        case 413: "What was sent is too large."
        case 500...: "Something went wrong on our side. Nothing you typed was lost; try again in a moment."
        default: "The request could not be completed."
        }
    }

    var content: HTMLNode {
        PageLayout(
            pageTitle: "\(status.code) \(status.reasonPhrase)", viewer: viewer,
            headExtras: retry.map { [meta(Attribute("http-equiv", "refresh"), .content(String($0.seconds)))] } ?? []
        ) {
            section(.class("error-card")) {
                h1 { retry == nil ? "\(status.code) \(status.reasonPhrase)" : "Not ready yet" }
                p { sentence }
                if let retry {
                    p { "This page asks again by itself in \(retry.seconds) seconds. " }
                    p { a(.href(retry.href)) { "Ask again now" } }
                }
                p(.class("muted")) { "Request id: \(requestID)" }
                if retry == nil { p { a(.href(SiteURL.dashboard.href)) { "Back to the dashboard" } } }
            }
        }.content
    }

    func response() -> Response {
        HTMLPage(self, status: status).response()
    }
}
