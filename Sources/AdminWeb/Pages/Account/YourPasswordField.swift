import HTMLRender

/// The password asked again before a change to one's own sign-in (other sessions, second factor).
struct YourPasswordField: HTMLComponent {
    var content: HTMLNode {
        label {
            "Your password"
            input(
                .type("password"), .name("password"), .autocomplete("current-password"), .required,
                .maxlength(1024))
        }
    }
}
