import HTTPTypes
import QRCode
import Testing

@testable import AdminDomain
@testable import AdminWeb

/// The sign-in steps, one's own account pages and the error page, from models made by hand,
/// as `.html` snapshots under `__Snapshots__/SnapshotsAccountAndLogin/`.
@Suite(.timeLimit(.minutes(20))) struct SnapshotsAccountAndLogin {
    /// An admin whose email needs escaping in an attribute (the top bar's title) and in text.
    static let viewer = Viewer(
        identity: StaffIdentity(adminID: 1, email: "o'brien&sons@example.com", role: .admin, hasTwoFactor: true),
        csrfToken: "csrf-token-1")

    @Test func loginView() {
        assertPageSnapshot(
            of: LoginView(
                model: LoginModel(
                    csrfToken: "csrf-login", email: "\"><script>alert(1)</script>@x.test",
                    next: "/users/42?tab=<items>&x=\"1\"", error: "Wrong email or password.")),
            "wrongPassword")
        // A next page elsewhere is not carried: no hidden field.
        assertPageSnapshot(
            of: LoginView(model: LoginModel(csrfToken: "csrf-login", next: "https://evil.example/")),
            "offSiteNextDropped")
    }

    @Test func secondFactorView() {
        assertPageSnapshot(
            of: SecondFactorView(
                model: SecondFactorModel(
                    csrfToken: "csrf-second", next: "/audit?actor=a&action=<b>",
                    error: "That code did not work. Try the newest one.")),
            "wrongCode")
    }

    @Test func passwordView() {
        let mustChange = Viewer(
            identity: StaffIdentity(adminID: 2, email: "new@example.com", role: .support, mustChangePassword: true),
            csrfToken: "csrf-token-2")
        assertPageSnapshot(
            of: PasswordView(
                model: PasswordModel(
                    errors: [
                        "The two new passwords differ.", "The password must have at least 12 characters.",
                    ]), viewer: mustChange),
            "oneTimePasswordAndError")
        assertPageSnapshot(
            of: PasswordView(
                model: PasswordModel(notice: "Password changed. Your other sessions have ended."), viewer: Self.viewer),
            "changed")
    }

    @Test func sessionsView() {
        let sessions = [
            SessionSummary(
                isCurrent: true, createdAt: PanelTime(text: "2026-11-20 08:00:00")!,
                lastSeenAt: PanelTime(text: "2026-11-23 09:59:00")!,
                clientAddress: "10.0.0.1",
                userAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0"),
            SessionSummary(
                isCurrent: false, createdAt: PanelTime(text: "2026-11-19 07:00:00")!,
                lastSeenAt: PanelTime(text: "2026-11-19 07:30:00")!,
                clientAddress: nil,
                userAgent: Hostile.script + " " + Hostile.rightToLeft + " " + Hostile.long),
            SessionSummary(
                isCurrent: false, createdAt: PanelTime(text: "2026-11-18 06:00:00")!,
                lastSeenAt: PanelTime(text: "2026-11-18 06:05:00")!,
                clientAddress: "2001:db8::1",
                userAgent: nil),
        ]
        assertPageSnapshot(
            of: SessionsView(
                model: SessionsModel(sessions: sessions, ended: nil, error: "Wrong password: nothing was ended."),
                viewer: Self.viewer), "threeSessionsAndError")
        assertPageSnapshot(
            of: SessionsView(model: SessionsModel(sessions: [sessions[0]], ended: 2), viewer: Self.viewer),
            "endedOthers")
    }

    @Test func twoFactorView() throws {
        let secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
        let uri =
            "otpauth://totp/Expiry%20Tracker%20Admin:o'brien%26sons%40example.com"
            + "?secret=\(secret)&issuer=Expiry%20Tracker%20Admin"
        let required = Viewer(
            identity: StaffIdentity(adminID: 3, email: "m@example.com", role: .marketing), csrfToken: "csrf-token-3")
        assertPageSnapshot(
            of: TwoFactorView(model: TwoFactorModel(state: .notStarted, required: true), viewer: required),
            "notStartedRequired")
        assertPageSnapshot(
            of: TwoFactorView(
                model: TwoFactorModel(
                    state: .enrolling(secret: secret, qrCode: try QRCode.encode(Array(uri.utf8)), uri: uri),
                    required: true, error: "That code did not match: check the phone's clock."),
                viewer: required),
            "enrollingWithError")
        assertPageSnapshot(
            of: TwoFactorView(
                model: TwoFactorModel(
                    state: .enabled(since: "2026-11-01 12:00:00", recoveryCodesLeft: 1), required: false,
                    notice: TwoFactorNotice.newCodes.sentence,
                    recoveryCodes: ["aaaa-bbbb-cccc", "dddd-eeee-ffff", "<b>&amp;</b>"]),
                viewer: Self.viewer),
            "enabledWithNewCodes")
    }

    @Test func errorView() {
        assertPageSnapshot(
            of: ErrorView(
                status: .notFound, requestID: "req-0001", viewer: Self.viewer,
                specific: "No user #\(Hostile.script)."), "notFoundSignedIn")
        assertPageSnapshot(
            of: ErrorView(status: .internalServerError, requestID: "req-<0002>&\"x\""), "serverErrorSignedOut")
    }
}
