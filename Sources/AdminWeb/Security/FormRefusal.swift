import Hummingbird

/// Why a form was not carried out, set on the request's context by the middleware that
/// refused it; the route shows its form again with what was typed and this sentence.
struct FormRefusal: Sendable, Equatable {
    let sentence: String
    let status: HTTPResponse.Status

    /// A token of another session: the page was opened before a sign-in or sign-out.
    static let outOfDate = FormRefusal(
        sentence:
            "This form was opened before a sign-in or sign-out (here or in another tab), "
            + "so it was not sent and nothing was changed. Check it and send it again.",
        status: .forbidden)

    /// Shown after signing in again, filled in as it was when the session had ended.
    static let sessionEnded = FormRefusal(
        sentence:
            "Your session had ended, so this form was not sent and nothing was changed. Here it is as you typed it: "
            + "check it and send it again.",
        status: .ok)

    /// A field the form reader refused: a broken escape, an unknown field, a control character.
    static func badField(_ sentence: String) -> FormRefusal {
        FormRefusal(sentence: sentence, status: .badRequest)
    }
}
