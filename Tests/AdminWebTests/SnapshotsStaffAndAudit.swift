import Testing

@testable import AdminDomain
@testable import AdminWeb

/// The admins' pages: staff accounts, the confirmation of a destructive action, failed
/// sign-ins and the audit log, as `.html` snapshots under `__Snapshots__/SnapshotsStaffAndAudit/`.
@Suite(.timeLimit(.minutes(20))) struct SnapshotsStaffAndAudit {
    static let viewer = SnapshotsAccountAndLogin.viewer

    static func account(_ id: Int64, _ email: String, _ role: Role, disabled: String? = nil, twoFactor: Bool = false)
        -> StaffAccount
    {
        StaffAccount(
            admin: Admin(
                id: id, email: email, passwordHash: "$argon2id$never-shown", role: role,
                createdAt: PanelTime(text: "2026-01-0\(id) 09:00:00")!,
                disabledAt: disabled.flatMap(PanelTime.init(text:)), passwordExpiresAt: nil),
            hasTwoFactor: twoFactor)
    }

    static let accounts = [
        account(1, "o'brien&sons@example.com", .admin, twoFactor: true),
        account(2, Hostile.email, .support),
        account(3, "gone@example.com", .marketing, disabled: "2026-02-02 00:00:00", twoFactor: true),
    ]

    @Test func staffView() {
        assertPageSnapshot(
            of: StaffView(
                model: StaffModel(
                    accounts: Self.accounts,
                    message: .init(
                        notice: StaffNotice.created.sentence,
                        oneTimePassword: (Hostile.email, "pass <word> & \"quotes\"'"))), viewer: Self.viewer),
            "createdWithOneTimePassword")
        assertPageSnapshot(
            of: StaffView(
                model: StaffModel(
                    accounts: [Self.accounts[0]],
                    message: .init(
                        error: "There is already an account for \(Hostile.email).", typedEmail: Hostile.email,
                        typedRole: .marketing, errorField: StaffView.emailField)),
                viewer: Self.viewer),
            "oneAccountAndError")
    }

    @Test func staffConfirmView() {
        assertPageSnapshot(
            of: StaffConfirmView(
                model: StaffConfirmModel(action: .resetTwoFactor, account: Self.accounts[1]), viewer: Self.viewer),
            "resetTwoFactor")
        assertPageSnapshot(
            of: StaffConfirmView(model: StaffConfirmModel(action: .endAllSessions, account: nil), viewer: Self.viewer),
            "endEveryOtherSession")
    }

    @Test func signInFailuresView() {
        let entries = [
            ThrottleEntry(
                key: ThrottleKey(kind: .pair, email: Hostile.email, address: "10.0.0.1")!, failures: 4,
                lastFailureAt: PanelTime(text: "2026-11-22 10:00:00")!, lockedUntil: nil),
            ThrottleEntry(
                key: ThrottleKey(kind: .address, email: "", address: "2001:db8::7")!, failures: 40,
                lastFailureAt: PanelTime(text: "2026-11-22 10:01:00")!,
                lockedUntil: PanelTime(text: "2026-11-22 10:16:00")),
            ThrottleEntry(
                key: ThrottleKey(kind: .account, email: "\(Hostile.rightToLeft)@example.com", address: "")!,
                failures: 12, lastFailureAt: PanelTime(text: "2026-11-22 10:02:00")!,
                lockedUntil: PanelTime(text: "2026-11-22 10:17:00")),
        ]
        let recent = [
            AuditRow(
                id: 9, at: PanelTime(text: "2026-11-22 10:02:00")!, actorEmail: Hostile.email,
                clientAddress: "10.0.0.1",
                action: "sign_in_failed",
                target: nil, detail: nil),
            AuditRow(
                id: 8, at: PanelTime(text: "2026-11-22 10:01:00")!, actorEmail: nil, clientAddress: "2001:db8::7",
                action: "sign_in_locked",
                target: "staff:2", detail: Hostile.script),
        ]
        assertPageSnapshot(
            of: SignInFailuresView(
                model: SignInFailuresModel(entries: entries, recent: recent, cleared: true), viewer: Self.viewer),
            "countsLocksAndCleared")
        assertPageSnapshot(
            of: SignInFailuresView(model: SignInFailuresModel(entries: [], recent: []), viewer: Self.viewer), "nothing")
    }

    @Test func auditLogView() {
        var filter = AuditFilter()
        filter.actor = "<b>"
        filter.action = "user_viewed"
        filter.target = "user:7 & \"x\""
        let rows = [
            AuditRow(
                id: 505, at: PanelTime(text: "2026-11-23 09:00:00")!, actorEmail: "o'brien&sons@example.com",
                clientAddress: "10.0.0.1",
                action: "user_viewed", target: "user:7", detail: "profile"),
            AuditRow(
                id: 504, at: PanelTime(text: "2026-11-23 08:59:00")!, actorEmail: Hostile.email, clientAddress: nil,
                action: "campaign_launched",
                target: "campaign:18", detail: Hostile.name),
            AuditRow(
                id: 503, at: PanelTime(text: "2026-11-23 08:58:00")!, actorEmail: nil, clientAddress: "2001:db8::1",
                action: "admin_disabled",
                target: "admin:3", detail: Hostile.long),
            AuditRow(
                id: 502, at: PanelTime(text: "2026-11-23 08:57:00")!, actorEmail: "x@example.com",
                clientAddress: "10.0.0.2",
                action: "users_exported",
                target: "<script>:\(Hostile.rightToLeft)", detail: nil),
        ]
        assertPageSnapshot(
            of: AuditLogView(
                model: AuditLogModel(filter: filter, rows: rows, newer: 505, older: 502, problem: nil),
                viewer: Self.viewer),
            "olderPageWithFilter")
        var refused = AuditFilter()
        refused.from = "2026-13-45<"
        assertPageSnapshot(
            of: AuditLogView(
                model: AuditLogModel(
                    filter: refused, rows: [],
                    problem: "From must be a date written YYYY-MM-DD."),
                viewer: Self.viewer),
            "refusedFilter")
        assertPageSnapshot(
            of: AuditLogView(model: AuditLogModel(filter: filter, rows: [], problem: nil), viewer: Self.viewer),
            "nothingMatches")
    }
}
