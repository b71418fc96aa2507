import AdminDomain
import HTMLRender
import QRCode

struct TwoFactorView: HTMLComponent {
    let model: TwoFactorModel
    let viewer: Viewer

    var content: HTMLNode {
        AccountPage(.twoFactor, viewer: viewer) {
            if let notice = model.notice { p(.class("notice"), .role("status")) { notice } }
            if let error = model.error { p(.class("notice error"), .role("alert")) { error } }
            if let codes = model.recoveryCodes {
                RecoveryCodesPanel(codes: codes)
            }
            switch model.state {
            case .notStarted:
                section(.class("panel")) {
                    if model.required {
                        p(.class("notice"), .role("status")) {
                            "Your role needs two-factor sign-in. Set it up to open the rest of the panel."
                        }
                    }
                    p { "Two-factor sign-in asks for a code from an app on your phone after your password." }
                    form(.method(.post), .action(SiteURL.beginTwoFactor.href)) {
                        CSRFField(token: viewer.csrfToken)
                        button(.type("submit"), .class("primary")) { "Set up two-factor" }
                    }
                }
            case .enrolling(let secret, let qrCode, let uri):
                section(.class("panel")) {
                    h2 { "1. Add the panel to your authenticator app" }
                    p { "Scan this code with an app such as Google Authenticator, 1Password, Authy or FreeOTP." }
                    if let qrCode {
                        QRCodeImage(code: qrCode, label: "QR code holding your two-factor key")
                    }
                    p {
                        "On the phone that has the app: "
                        a(.href(uri)) { "open the key in the authenticator app" }
                        "."
                    }
                    p { "Or type this key into the app (time-based, 6 digits, every 30 seconds):" }
                    p { code(.class("secret")) { Self.grouped(secret) } }
                    h2 { "2. Type the code the app shows, and your password" }
                    form(.method(.post), .action(SiteURL.confirmTwoFactor.href), .class("filters")) {
                        CSRFField(token: viewer.csrfToken)
                        CodeField()
                        YourPasswordField()
                        button(.type("submit"), .class("primary")) { "Turn on two-factor" }
                    }
                }
            case .enabled(let since, let left):
                section(.class("panel")) {
                    p { "Two-factor sign-in is on since \(since) UTC." }
                    p { left == 1 ? "1 recovery code left." : "\(left) recovery codes left." }
                    h2 { "New recovery codes" }
                    form(.method(.post), .action(SiteURL.newRecoveryCodes.href), .class("filters")) {
                        CSRFField(token: viewer.csrfToken)
                        CodeField()
                        button(.type("submit"), .class("primary")) { "Make new codes" }
                    }
                    if !model.required {
                        h2 { "Turn off" }
                        form(.method(.post), .action(SiteURL.disableTwoFactor.href), .class("filters")) {
                            CSRFField(token: viewer.csrfToken)
                            CodeField()
                            button(.type("submit")) { "Turn off two-factor" }
                        }
                    } else {
                        p(.class("muted")) { "Your role needs two-factor sign-in, so it stays on." }
                    }
                }
            }
        }.content
    }

    static func grouped(_ secret: String) -> String {
        stride(from: 0, to: secret.count, by: 4).map { start in
            let from = secret.index(secret.startIndex, offsetBy: start)
            return String(
                secret[from..<(secret.index(from, offsetBy: 4, limitedBy: secret.endIndex) ?? secret.endIndex)])
        }.joined(separator: " ")
    }
}

/// The code an authenticator app shows now (or a recovery code, where one is accepted).
private struct CodeField: HTMLComponent {
    var content: HTMLNode {
        label {
            "Code from the app"
            input(
                .type("text"), .name("code"), .autocomplete("one-time-code"), .inputMode("numeric"), .required,
                .maxlength(64))
        }
    }
}

/// The recovery codes, this once: copy and download buttons (a little script; without it the
/// codes are still there to copy by hand), and a clear way on.
private struct RecoveryCodesPanel: HTMLComponent {
    let codes: [String]

    var content: HTMLNode {
        section(.class("panel one-time"), .id("recovery-codes"), Attribute("data-codes", codes.joined(separator: "\n")))
        {
            h2 { "Your recovery codes" }
            p {
                "Each signs you in once when your phone is not at hand. Keep them somewhere safe, away from the phone."
            }
            ol(.class("codes")) { for code in codes { li { code } } }
            p(.class("actions")) {
                button(.type("button"), .hidden, Attribute("data-copy", "")) { "Copy the codes" }
                button(.type("button"), .hidden, Attribute("data-download", "")) { "Download them as a file" }
                span(.role("status"), Attribute("data-said", "")) {}
            }
            p(.class("muted")) { "Shown once: this page will not show them again. Asking for new codes ends these." }
            p { a(.href(SiteURL.dashboard.href), .class("button")) { "I have saved them: continue" } }
            script(.src(SiteURL.codesScript.path), .defer) {}
        }
    }
}
