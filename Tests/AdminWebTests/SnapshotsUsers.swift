import Foundation
import GRDB
import Testing

@testable import AdminDomain
@testable import AdminWeb
@testable import CampaignDispatch

/// Support's pages: search, the activity lists, a user's profile and activity log, as
/// `.html` snapshots under `__Snapshots__/SnapshotsUsers/`. Rows the views read from the
/// database are made from dictionaries: no database is opened.
@Suite(.timeLimit(.minutes(20))) struct SnapshotsUsers {
    static let viewer = Viewer(
        identity: StaffIdentity(adminID: 4, email: "support@example.com", role: .support), csrfToken: "csrf-token-4")
    static let now = SQLiteTime.date("2026-11-23 10:00:00")!

    static let users = [
        UserSummary(
            id: 42, email: Hostile.email, displayName: Hostile.name, plan: .known(.premium),
            status: .unknown("banned<b>"),
            createdAt: "2025-01-01 00:00:00", lastActiveAt: "2026-11-22 23:59:59", itemCount: 1_000),
        UserSummary(
            id: 43, email: "long@example.com", displayName: Hostile.long, plan: .unknown("gold & \"silver\""),
            status: .known(.active),
            createdAt: "2025-02-01 00:00:00", lastActiveAt: nil, itemCount: 7),
        UserSummary(
            id: 44, email: "\(Hostile.rightToLeft)@example.com", displayName: nil, plan: .known(.free),
            status: .known(.suspended),
            createdAt: "not a time", lastActiveAt: "2026-11-20 08:00:00"),
    ]

    static func event(_ id: Int64, _ kind: String, _ detail: String?, _ platform: String?, _ at: String) throws
        -> ActivityEvent
    {
        try ActivityEvent(row: Row(["id": id, "kind": kind, "detail": detail, "platform": platform, "created_at": at]))
    }

    static func events() throws -> [ActivityEvent] {
        [
            try event(9, "item_added", "name=\(Hostile.script)", "ios", "2026-11-23 09:00:00"),
            try event(8, "settings_changed", Hostile.long + Hostile.long, "symbian<3", "2026-11-22 09:00:00"),
            try event(7, "login", nil, nil, "2026-11-21 09:00:00"),
        ]
    }

    @Test func userSearchView() {
        var capped = Self.users
        capped[0].itemCountIsCapped = true
        assertPageSnapshot(
            of: UserSearchView(
                model: UserSearchModel(
                    form: UserSearchForm(fields: ["q": "<b>"]),
                    result: UserSearchResult(users: capped, next: "<b>x&y", text: "<b>")),
                viewer: Self.viewer),
            "emailsWithNextPage")
        assertPageSnapshot(
            of: UserSearchView(
                model: UserSearchModel(
                    form: UserSearchForm(fields: ["by": "name", "q": Hostile.name]),
                    result: UserSearchResult(
                        users: [], scanned: 100_000, stoppedOnBudget: true, searched: .name, text: Hostile.name,
                        namesAfterNoEmail: true)),
                viewer: Self.viewer),
            "namesScannedNothingFound")
        assertPageSnapshot(
            of: UserSearchView(
                model: UserSearchModel(
                    form: UserSearchForm(fields: ["by": "id", "q": "\"x\" & <y>"]), result: nil,
                    problems: ["A user id is a number, such as 123 or #123: “\"x\" & <y>” is not one."]),
                viewer: Self.viewer),
            "refused")
    }

    @Test func activityListView() {
        var model = ActivityListModel(
            form: ActivityForm(fields: [
                "bucket": "idle", "plan": "premium", "from": "2025-01-01", "after": "2026-11-01", "after_id": "41",
            ]),
            query: ActivityListQuery(UserFilter(bucket: .idle, plan: .premium)),
            size: ListSize(value: 1_234, isEstimate: true, margin: 56),
            page: ActivityPage(
                users: Self.users, next: ActivityCursor(key: "2026-10-30 00:00:00", id: 44), stoppedOnBudget: true,
                candidatesRead: 5_000, previous: ActivityCursor(key: "2026-10-31 12:00:00", id: 40)),
            problems: [])
        model.outsideEveryList = 3
        assertPageSnapshot(of: ActivityListView(model: model, viewer: Self.viewer), "estimateLaterPageStoppedOnBudget")
        let counted = ActivityListModel(
            form: ActivityForm(fields: ["bucket": "never"]), query: ActivityListQuery(UserFilter(bucket: .never)),
            size: ListSize(value: 1, isEstimate: false, countedAt: Self.now),
            page: ActivityPage(users: [Self.users[2]], next: nil, stoppedOnBudget: false), problems: [])
        assertPageSnapshot(of: ActivityListView(model: counted, viewer: Self.viewer), "countedOne")
        let refused = ActivityListModel(
            form: ActivityForm(fields: ["bucket": "<b>", "from": "2026-02-30"]),
            query: ActivityListQuery(UserFilter(bucket: .active)), size: nil, page: nil,
            problems: [
                "There is no activity list “<b>”: choose one of active, idle, inactive, never.",
                "Signed up from must be a date written YYYY-MM-DD.",
            ])
        assertPageSnapshot(of: ActivityListView(model: refused, viewer: Self.viewer), "refused")
    }

    @Test func userActivityView() throws {
        let page = UserActivityLog.Page(
            events: try Self.events(), next: ActivityCursor(key: "2026-11-21 09:00:00", id: 7))
        assertPageSnapshot(
            of: UserActivityView(
                model: UserActivityModel(
                    user: Self.users[0],
                    form: ActivityLogForm(fields: ["kind": "item_added", "before": "2026-12-01", "before_id": "99"]),
                    page: page, problems: []), viewer: Self.viewer),
            "olderPage")
        assertPageSnapshot(
            of: UserActivityView(
                model: UserActivityModel(
                    user: Self.users[1], form: ActivityLogForm(fields: ["from": "2026-11-30", "to": "2026-11-01"]),
                    page: nil,
                    problems: ["The date range ends before it starts."]), viewer: Self.viewer),
            "refused")
    }

    /// Reminders in trouble, a campaign that held the user out, pushes that did not go out.
    static let evidence: Reachability.Evidence = {
        var evidence = Reachability.Evidence()
        evidence.reminders = .init()
        evidence.reminders.due = 40
        evidence.reminders.sent = 30
        evidence.reminders.late = 4
        evidence.reminders.failed = 2
        evidence.reminders.cancelled = 5
        evidence.reminders.overdue = 3
        evidence.reminders.latestLate = "2026-11-20 09:00:00"
        evidence.reminders.latestFailed = "2026-11-19 09:00:00"
        evidence.reminders.latestCancelled = "2026-11-18 09:00:00"
        evidence.reminders.latestOverdue = "2026-11-23 09:00:00"
        evidence.pushes = 3
        evidence.heldOut = [
            .init(campaignID: 17, campaignName: Hostile.script, launchedAt: PanelTime(text: "2026-11-21 12:00:00")!)
        ]
        evidence.misses = [
            .init(
                campaignID: 18, campaignName: Hostile.name, deviceID: 1, state: .known(.queued),
                detail: "put off to the end of the user's quiet hours",
                dueAt: PanelTime(text: "2026-11-23 22:00:00")!, updatedAt: PanelTime(text: "2026-11-23 09:00:00")!),
            .init(
                campaignID: 19, campaignName: "Gone <template>", deviceID: 2, state: .known(.excluded),
                detail: "no longer in the audience when due: <no token>",
                dueAt: PanelTime(text: "2026-11-22 09:00:00")!,
                updatedAt: PanelTime(text: "2026-11-22 09:00:00")!),
        ]
        return evidence
    }()

    @Test func userProfileView() throws {
        let account = try UserProfile.Account(
            row: Row([
                "id": 42, "email": Hostile.email, "display_name": Hostile.name, "plan": "free", "status": "banned",
                "timezone": "Mars/<Olympus>",
                "locale": "ar-EG", "household_id": 9, "created_at": "2025-01-01 00:00:00",
                "last_active_at": "2026-11-22 23:59:59",
                "email_verified_at": nil,
            ]))
        let profile = UserProfile(
            account: account, calendar: UserCalendar(timezone: account.timezone, now: Self.now),
            household: .init(
                id: 9, name: "The \(Hostile.script) household",
                members: [
                    .init(id: 42, email: Hostile.email, displayName: Hostile.name),
                    .init(id: 45, email: "partner@example.com", displayName: Hostile.rightToLeft),
                ]),
            food: .init(expired: 2, expiringSoon: 1, safe: 19_997, consumed: 3),
            documents: .init(expired: 0, expiringSoon: 0, safe: 1),
            devices: [
                .init(
                    id: 1, platform: .known(.ios), pushProvider: .known(.apns), maskedToken: "…a1b2c3",
                    deadToken: .init(reason: "BadDeviceToken <x>", recordedAt: PanelTime(text: "2026-11-20 10:00:00")!),
                    pushPermission: .known(.granted),
                    appVersion: "3.2.1", osVersion: "iOS 18.1", createdAt: "2025-01-01 00:00:00",
                    lastSeenAt: "2026-11-22 23:00:00"),
                .init(
                    id: 2, platform: .unknown("web<os>"), pushProvider: .unknown("pigeon"), maskedToken: nil,
                    deadToken: nil,
                    pushPermission: .unknown("maybe"), appVersion: Hostile.script, osVersion: nil,
                    createdAt: "2025-02-01 00:00:00",
                    lastSeenAt: "2025-02-02 00:00:00"),
            ],
            settings: .init(
                pushEnabled: true, foodReminders: false, documentReminders: true, marketingOptIn: true,
                reminderDays: "1,3,<7>",
                dailyTime: "09:00", quietHours: .unreadable(start: "25:99 \(Hostile.rightToLeft)", end: nil)),
            subscriptions: [
                .init(
                    planType: "premium_yearly", status: .known(.active), store: "app_store", priceCents: 2_999,
                    currency: "EUR",
                    startedAt: "2026-01-01 00:00:00", currentPeriodEnd: "2027-01-01 00:00:00", cancelledAt: nil)
            ],
            reminderCounts: .init(scheduled: 4, overdue: 3, sent: 1_200, opened: 300, failed: 2, cancelled: 5),
            recentReminders: [
                .init(
                    itemKind: .known(.food), itemName: Hostile.script, daysBefore: 3,
                    scheduledFor: "2026-11-24 09:00:00",
                    status: .known(.scheduled), sentAt: nil, openedAt: nil),
                .init(
                    itemKind: .known(.document), itemName: nil, daysBefore: 30, scheduledFor: "2026-10-01 09:00:00",
                    status: .unknown("lost"), sentAt: "2026-10-01 09:00:01", openedAt: "2026-10-01 10:00:00"),
            ],
            recentActivity: try Self.events(), evidence: Self.evidence, readAt: Self.now)
        let items = UserItems.Page(
            items: [
                .init(
                    id: 10, name: Hostile.name, category: "Dairy", storage: "Refrigerator", quantity: "2 <l>",
                    maskedNumber: nil,
                    expiryDate: "2026-11-20", state: .expired, daysRemaining: -3, createdAt: "2026-11-01 00:00:00",
                    consumedAt: nil),
                .init(
                    id: 11, name: Hostile.long, category: "<Other>", storage: nil, quantity: nil, maskedNumber: nil,
                    expiryDate: "someday", state: .safe, daysRemaining: nil, createdAt: "2026-11-02 00:00:00",
                    consumedAt: nil),
            ], next: UserItems.Cursor(nearness: 5, id: 11), previous: UserItems.Cursor(nearness: 1, id: 10), offset: 50,
            total: 20_003)
        var model = UserProfileModel(profile: profile, items: items)
        model.campaignPushes = [
            CampaignPushOfUser(
                deliveryID: 501, campaignID: 18, campaignName: Hostile.name, title: "Hi {{display_name}}", body: "b",
                template: nil, deviceID: 1, userID: 42, state: .known(.queued), receipt: 0,
                updatedAt: PanelTime(text: "2026-11-23 09:00:00")!,
                dueAt: PanelTime(text: "2026-11-23 22:00:00")!),
            CampaignPushOfUser(
                deliveryID: 502, campaignID: 19, campaignName: "Gone template", title: Hostile.script,
                body: "Line one\nline <two>",
                template: "deleted<template>", deviceID: 2, userID: 42, state: .unknown("exploded"), receipt: 2,
                updatedAt: PanelTime(text: "2026-11-22 09:00:00")!, dueAt: nil),
        ]
        model.pushTexts = [
            501: CampaignTexts.Filled(title: "Hi \(Hostile.name)", body: "You have 3 <items>", isPersonal: true)
        ]
        model.usualHour = UserUsualHour(
            hour: 20, basis: .own, activeDays: 31, ownHour: 20, ownHourDays: 14, peers: nil, peerPlatform: nil,
            peerLocale: nil, movedTo: 21, building: false)
        assertPageSnapshot(of: UserProfileView(model: model, viewer: Self.viewer), "hostileUser")
        // Its items on their own page: a later page, then a name search that finds nothing
        // (the sentence, what was typed escaped, no table).
        let owner = UserItems.Owner(
            account: account, calendar: profile.calendar, food: profile.food, documents: profile.documents)
        let later = ItemsForm(fields: ["kind": "food", "after": "1", "after_id": "9"])
        assertPageSnapshot(
            of: UserItemsView(
                model: UserItemsModel(owner: owner, form: later, filter: later.query.filter, items: items),
                viewer: Self.viewer),
            "hostileUserLaterPage")
        let searched = ItemsForm(fields: ["kind": "food", "name": Hostile.script])
        let nothing = UserItemsModel(
            owner: owner, form: searched, filter: searched.query.filter, items: UserItems.Page(items: [], next: nil))
        assertPageSnapshot(of: UserItemsView(model: nothing, viewer: Self.viewer), "itemSearchFindsNothing")
        let refused = ItemsForm(fields: ["kind": "food", "state": "rotten<b>"])
        assertPageSnapshot(
            of: UserItemsView(
                model: UserItemsModel(
                    owner: owner, form: refused, filter: refused.query.filter, items: nil,
                    problems: refused.query.problems),
                viewer: Self.viewer),
            "refused")
    }

    @Test func userRemindersView() throws {
        let reminders: [UserReminders.Reminder] = [
            .init(
                id: 1, itemKind: .known(.food), itemID: 10, itemName: Hostile.script, itemDeleted: false,
                itemNearness: 4, itemConsumed: false, daysBefore: 1,
                scheduledFor: "2026-11-23 09:00:00", status: .known(.scheduled), sentAt: nil, openedAt: nil,
                overdue: true),
            .init(
                id: 2, itemKind: .known(.document), itemID: 11, itemName: Hostile.name, itemDeleted: true,
                itemNearness: 0, itemConsumed: false, daysBefore: 30,
                scheduledFor: "2026-11-22 09:00:00", status: .known(.sent), sentAt: "2026-11-22 09:03:05",
                openedAt: "2026-11-22 10:00:00", overdue: false),
            .init(
                id: 3, itemKind: .known(.food), itemID: 12, itemName: nil, itemDeleted: false, itemNearness: nil,
                itemConsumed: false, daysBefore: 7,
                scheduledFor: "2026-11-21 09:00:00", status: .known(.sent), sentAt: "2026-11-21 08:59:00",
                openedAt: nil, overdue: false),
            .init(
                id: 4, itemKind: .unknown("pet<b>"), itemID: 13, itemName: nil, itemDeleted: false, itemNearness: nil,
                itemConsumed: false, daysBefore: nil,
                scheduledFor: "yesterday <b>", status: .known(.sent), sentAt: nil, openedAt: nil, overdue: false),
            .init(
                id: 5, itemKind: .known(.food), itemID: 14, itemName: "Milk", itemDeleted: false, itemNearness: 9,
                itemConsumed: true, daysBefore: 0,
                scheduledFor: "2026-11-20 09:00:00", status: .known(.sent), sentAt: "2026-11-20 09:00:12",
                openedAt: nil, overdue: false),
        ]
        let summary = UserProfile.ReminderCounts(
            scheduled: 4, overdue: 1, sent: 120, opened: 30, failed: 2, cancelled: 3)
        let page = UserReminders.Page(
            email: Hostile.email, timezone: "Asia/Tokyo", reminders: reminders, summary: summary, matching: 130,
            number: 2)
        let listed = UserRemindersModel(
            userID: 42, form: RemindersForm(fields: ["kind": "food", "item": "10", "page": "2"]),
            filter: .init(kind: .food, itemID: 10), page: page)
        assertPageSnapshot(of: UserRemindersView(model: listed, viewer: Self.viewer), "secondPageOfOneItem")
        let nowhere = UserReminders.Page(
            email: "a@example.com", timezone: "Mars/<Olympus>", reminders: [], summary: summary, matching: 0, number: 1)
        let refused = UserRemindersModel(
            userID: 42, form: RemindersForm(fields: ["status": "bogus<b>", "page": "0"]), filter: .init(),
            page: nowhere,
            problems: RemindersForm(fields: ["status": "bogus<b>", "page": "0"]).query.problems)
        assertPageSnapshot(of: UserRemindersView(model: refused, viewer: Self.viewer), "refusedQueryBadTimezone")
    }
}
