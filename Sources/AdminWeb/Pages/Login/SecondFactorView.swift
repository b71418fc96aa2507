import HTMLRender

/// The second step of signing in: a code from the authenticator app, or a recovery code.
struct SecondFactorView: HTMLComponent {
    let model: SecondFactorModel

    var content: HTMLNode {
        SignInCard(
            pageTitle: "Two-factor code", heading: "Enter your code",
            help: "Open your authenticator app and type the six-digit code for Expiry Tracker Admin.",
            error: model.error, action: .secondFactor(), csrfToken: model.csrfToken, next: model.next,
            fields: [
                label(.for("code")) { "Code" },
                input(
                    .type("text"), .id("code"), .name("code"), .autocomplete("one-time-code"), .inputMode("numeric"),
                    .required, .autofocus, .maxlength(64)),
            ],
            after: [
                p(.class("muted")) { "Lost your phone? Type one of your recovery codes instead; each works once." },
                p { a(.href(SiteURL.login().href)) { "Start again" } },
            ]
        ).content
    }
}
