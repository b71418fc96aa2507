import HTMLRender

/// A form's submit button and the way back without saving: to what is edited, or to the list.
struct FormActions: HTMLComponent {
    let submit: String
    let back: (label: String, url: SiteURL)

    var content: HTMLNode {
        div(.class("actions")) {
            button(.type("submit"), .class("primary")) { submit }
            a(.href(back.url.href)) { back.label }
        }
    }
}
