import HTMLRender

/// The hidden field every POST form carries; `CSRFMiddleware` checks it.
struct CSRFField: HTMLComponent {
    let token: String

    var content: HTMLNode {
        input(.type("hidden"), .name(CSRFToken.fieldName), .value(token))
    }
}
