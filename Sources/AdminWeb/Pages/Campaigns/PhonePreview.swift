import HTMLRender

/// The message as a phone's lock screen would show it: app name, title, body cut where a
/// phone cuts it.
struct PhonePreview: HTMLComponent {
    let title: String
    let body: String
    let caption: String

    var content: HTMLNode {
        figure(.class("phone")) {
            div(.class("phone-screen")) {
                div(.class("notification"), .role("img"), .ariaLabel("Notification preview: \(title). \(body)")) {
                    p(.class("notification-app")) { "Expiry Tracker · now" }
                    // A recipient's name or item as typed, isolated like any user text.
                    p(.class("notification-title")) { UserText(text: title, clampAfter: .max) }
                    p(.class("notification-body")) { UserText(text: body, clampAfter: .max) }
                }
            }
            figcaption { caption }
        }
    }
}
