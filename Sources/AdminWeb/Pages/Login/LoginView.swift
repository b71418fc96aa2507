import HTMLRender

struct LoginView: HTMLComponent {
    let model: LoginModel

    var content: HTMLNode {
        SignInCard(
            pageTitle: "Sign in", heading: "Sign in", help: "Staff access to the Expiry Tracker back office.",
            error: model.error, action: .login(), csrfToken: model.csrfToken, next: model.next,
            fields: [
                label(.for("email")) { "Email" },
                input(
                    .type("email"), .id("email"), .name("email"), .value(model.email), .autocomplete("username"),
                    .required, .autofocus, .maxlength(320)),
                label(.for("password")) { "Password" },
                input(
                    .type("password"), .id("password"), .name("password"), .autocomplete("current-password"),
                    .required, .maxlength(1024)),
            ]
        ).content
    }
}
