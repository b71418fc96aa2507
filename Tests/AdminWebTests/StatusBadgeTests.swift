import Foundation
import Testing

@testable import AdminDomain
@testable import AdminWeb

/// Issue 36, point 1: statuses were plain words ("denied", "failed", "sending" looked like any
/// other text). Each status type's badge, value by value, against a table written here: the
/// tone a person reads and the word they read beside it. A table that misses a value fails.
@Suite(.timeLimit(.minutes(20))) struct StatusBadges {
    typealias Tone = StatusBadge.Tone

    private func check<Status: BadgeStatus & CaseIterable & Hashable>(
        _ table: [Status: (Tone, String)], _ note: Comment
    ) {
        #expect(Set(table.keys) == Set(Status.allCases), "every value has a row: \(note)")
        for (status, (tone, text)) in table {
            let badge = StatusBadge(status)
            #expect(badge.tone == tone && badge.text == text, "\(status): \(badge.tone) “\(badge.text)” \(note)")
        }
    }

    @Test func accountsAndPlans() {
        check([Plan.free: (.neutral, "free"), .premium: (.good, "premium")], "plan")
        check(
            [
                AccountStatus.active: (.good, "active"), .suspended: (.warning, "suspended"),
                .deleted: (.bad, "deleted"),
            ], "account")
        check(
            [
                SubscriptionStatus.active: (.good, "active"), .pastDue: (.warning, "past due"),
                .cancelled: (.warning, "cancelled"),
                .expired: (.neutral, "expired"), .refunded: (.neutral, "refunded"),
            ], "subscription")
    }

    @Test func campaignsJourneysAndDeliveries() {
        check(
            [
                CampaignShownStatus.draft: (.neutral, "draft"), .materialising: (.info, "preparing the audience"),
                .scheduled: (.info, "scheduled"),
                .sending: (.info, "sending"), .paused: (.warning, "paused"), .cancelled: (.bad, "cancelled"),
                .finished: (.good, "finished"),
            ], "campaign")
        check(
            [
                JourneyStatus.draft: (.neutral, "draft"), .active: (.good, "active"), .paused: (.warning, "paused"),
                .ended: (.neutral, "ended"),
            ], "journey")
        check(
            [
                DeliveryState.queued: (.info, "queued"), .sending: (.info, "sending"), .retry: (.info, "retry"),
                .accepted: (.good, "accepted"),
                .failed: (.bad, "failed"), .dead: (.bad, "dead"), .unknown: (.warning, "unknown (in flight at a stop)"),
                .cancelled: (.neutral, "cancelled"), .capped: (.warning, "capped"), .excluded: (.warning, "excluded"),
            ], "delivery")
        check(
            [
                ReceiptState.nothing: (.neutral, "nothing yet"), .received: (.info, "received"),
                .opened: (.good, "opened"),
            ], "receipt")
    }

    @Test func remindersDevicesAndTokens() {
        check(
            [
                ReminderStatus.scheduled: (.info, "scheduled"), .sent: (.good, "sent"), .failed: (.bad, "failed"),
                .cancelled: (.neutral, "cancelled"),
            ],
            "reminder")
        check(
            [
                UserReminders.Status.scheduled: (.info, "scheduled"), .overdue: (.warning, "overdue (scheduled)"),
                .sent: (.good, "sent"),
                .failed: (.bad, "failed"), .cancelled: (.neutral, "cancelled"),
            ], "a user's reminders")
        check(
            [
                CriterionVerdict.met: (.good, "yes"), .under: (.bad, "no: under its target"),
                .nothingToMeasure: (.neutral, "n/a"),
            ], "reminder health")
        check(
            [
                PushPermission.granted: (.good, "granted"), .denied: (.bad, "denied"),
                .unknown: (.warning, "not asked yet"),
            ], "permission")
        check([TokenState.none: (.neutral, "no token"), .live: (.good, "live"), .dead: (.bad, "dead")], "token")
    }

    @Test func staffReachabilityAndItems() {
        check(
            [
                StaffAccountState.active: (.good, "active"), .disabled: (.bad, "disabled"),
                .oneTimePassword: (.warning, "one-time password"),
            ], "staff")
        check(
            [TwoFactorState.on: (.good, "on"), .off: (.neutral, "off"), .pending: (.warning, "not set up (required)")],
            "two-factor")
        // Pending: the role needs a second factor (an admin, or everyone under --require-two-factor) and it has none.
        let admin = Admin(
            id: 1, email: "a@example.com", passwordHash: "", role: .admin, createdAt: PanelTime(secondsSinceEpoch: 0),
            disabledAt: nil, passwordExpiresAt: nil)
        var support = admin
        support.role = .support
        #expect(TwoFactorState(StaffAccount(admin: admin, hasTwoFactor: false), policy: TwoFactorPolicy()) == .pending)
        #expect(TwoFactorState(StaffAccount(admin: support, hasTwoFactor: false), policy: TwoFactorPolicy()) == .off)
        #expect(
            TwoFactorState(
                StaffAccount(admin: support, hasTwoFactor: false), policy: TwoFactorPolicy(requiredForAll: true))
                == .pending)
        #expect(
            TwoFactorState(
                StaffAccount(admin: support, hasTwoFactor: true), policy: TwoFactorPolicy(requiredForAll: true)) == .on)
        check(
            [SignInLockState.locked: (.bad, "locked"), .slowed: (.warning, "not locked (slowed only)")],
            "sign-in throttle")
        // Reachability's marks are not CaseIterable: the four named here are all it declares.
        for (mark, tone, text) in [
            (Reachability.Mark.fine, Tone.good, "OK"), (.blocks, .bad, "Blocks"), (.mayNot, .warning, "May not"),
            (.note, .info, "Note"),
        ] {
            #expect(StatusBadge(mark).tone == tone && StatusBadge(mark).text == text, "\(mark)")
        }
        check(
            [
                UserItems.State.expired: (.bad, "Expired"), .expiringSoon: (.warning, "Expiring soon"),
                .safe: (.good, "Safe"),
                .consumed: (.neutral, "Consumed"),
            ], "item")
    }

    /// A value the panel does not know is neither guessed nor dropped: a neutral badge that
    /// says it, its text escaped like all text.
    @Test func anUnknownStoredValueIsANeutralBadgeThatSaysSo() {
        let badge = StatusBadge(Stored<PushPermission>.unknown("<b>maybe</b>"))
        #expect(badge.tone == .neutral && badge.text == "unknown (<b>maybe</b>)")
        #expect(
            PageSnapshots.page(badge).hasSuffix(
                "<span class=\"badge tone-neutral\">unknown (&lt;b&gt;maybe&lt;/b&gt;)</span>"))
        #expect(
            PageSnapshots.page(StatusBadge(Stored<ReminderStatus>.known(.failed))).hasSuffix(
                "<span class=\"badge tone-bad\">failed</span>"))
    }

    /// The views print their statuses as badges, not words: a search's plan and status cells.
    @Test func theSearchListShowsPlansAndStatusesAsBadges() {
        let page = PageSnapshots.page(
            UserSearchView(
                model: UserSearchModel(
                    form: UserSearchForm(fields: ["q": "x"]),
                    result: UserSearchResult(users: SnapshotsUsers.users, next: nil, text: "x")),
                viewer: SnapshotsUsers.viewer))
        #expect(page.contains("<span class=\"badge tone-good\">premium</span>"))
        #expect(page.contains("<span class=\"badge tone-neutral\">unknown (banned&lt;b&gt;)</span>"))
        #expect(page.contains("<span class=\"badge tone-warning\">suspended</span>"))
    }
}

/// Issue 36, point 5: one primary action a page. Every page the snapshots hold (each view in
/// its states) has at most one filled button.
@Suite(.timeLimit(.minutes(20))) struct OnePrimaryAction {
    @Test func noSnapshotHasTwoPrimaryButtons() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("__Snapshots__")
        let files =
            FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "html" } ?? []
        #expect(files.count > 60, "the snapshots were found")
        var crowded: [String] = []
        for file in files {
            let page = try String(contentsOf: file, encoding: .utf8)
            let primaries = page.matches(of: /class="(button )?primary"/).count
            if primaries > 1 { crowded.append("\(file.lastPathComponent): \(primaries)") }
        }
        #expect(crowded.isEmpty, "\(crowded)")
    }
}
