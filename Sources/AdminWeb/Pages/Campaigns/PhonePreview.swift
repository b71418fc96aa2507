import AdminDomain
import HTMLRender

/// The message as a phone's lock screen would show it on iOS or Android: app name, title,
/// body cut where that phone cuts it.
struct PhonePreview: HTMLComponent {
    let title: String
    let body: String
    var platform: Platform = .ios
    let caption: String

    var content: HTMLNode {
        figure(.class("phone \(platform.rawValue)")) {
            div(.class("phone-screen")) {
                div(
                    .class("notification"), .role("img"),
                    .ariaLabel(
                        "Notification preview: \(UserText.visible(title, multiline: true)). "
                            + "\(UserText.visible(body, multiline: true))"
                    )
                ) {
                    p(.class("notification-app")) { platform == .ios ? "EXPIRY TRACKER · now" : "Expiry Tracker • now" }
                    // A recipient's name or item as typed, isolated like any user text.
                    p(.class("notification-title")) { UserText(text: title, clampAfter: .max, multiline: true) }
                    p(.class("notification-body")) { UserText(text: body, clampAfter: .max, multiline: true) }
                }
            }
            figcaption { caption }
        }
    }
}
