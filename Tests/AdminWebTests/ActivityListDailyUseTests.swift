import Foundation
import GRDB
import HTMLRender
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import AdminDomain
@testable import AdminWeb

/// Issue 22, "Daily use": filtered lists fill their pages, and a range that ends before it
/// starts is a mistake named, not a list of nobody.
@Suite(.timeLimit(.minutes(20))) struct ActivityListDailyUse {
    @Test func aReversedRangeIsRefusedWithASentenceAndTheFormKeepsIt() async throws {
        let panel = try await UserPages.panel()
        defer { panel.remove() }
        try await panel.test { client in
            let session = try await panel.signIn(client)
            let refused: [(path: String, sentence: String)] = [
                (
                    "/activity?bucket=inactive&plan=free&from=2025-06-01&to=2025-01-31",
                    "The sign-up range ends on 2025-01-31, before it starts on 2025-06-01: swap the two dates, "
                        + "or correct one."
                ),
                (
                    "/activity.csv?bucket=inactive&from=2025-06-01&to=2025-01-31",
                    "The sign-up range ends on 2025-01-31, before it starts on 2025-06-01"
                ),
                (
                    "/users/3/activity?from=2026-02-01&to=2026-01-01",
                    "The date range ends on 2026-01-01, before it starts on 2026-02-01"
                ),
                (
                    "/audit?from=2026-02-01&to=2026-01-01",
                    "The date range ends on 2026-01-01, before it starts on 2026-02-01"
                ),
            ]
            for (path, sentence) in refused {
                let page = try await client.get(path, cookie: session)
                #expect(page.status == .badRequest, "\(path)")
                #expect(page.text.contains(sentence), "\(path)")
                #expect(
                    !page.text.contains("About ") && !page.text.contains("on this page"),
                    "\(path): nothing estimated or listed")
            }
            let kept = try await client.get("/activity?bucket=inactive&from=2025-06-01&to=2025-01-31", cookie: session)
            #expect(
                kept.text.contains("name=\"from\" value=\"2025-06-01\"")
                    && kept.text.contains("name=\"to\" value=\"2025-01-31\""))
            // The same days the right way round are a list.
            #expect(
                try await client.get("/activity?bucket=inactive&from=2025-01-31&to=2025-06-01", cookie: session).status
                    == .ok)
        }
        let served = try await panel.areas.database.read { db in
            try Int.fetchOne(
                db,
                sql: "SELECT COUNT(*) FROM panel_audit_log WHERE action IN ('activity_list_viewed', 'users_exported')")
        }
        #expect(served == 1, "only the list served is audited")
    }

    /// 12,000 free users active most recently, then 60 premium ones: the first page of active
    /// premium users is full, and the users are the ones plain SQL lists first.
    @Test func aSparseFilteredListShowsAFullFirstPage() async throws {
        let panel = try await TestPanel(areas: [.support])
        defer { panel.remove() }
        let now = Date()
        try await DatabaseQueue(path: panel.temp.path).write { db in
            try SparseActivityRows.insert(
                into: db, freeActiveAt: SQLiteTime.string(now.addingTimeInterval(60)),
                premiumActiveAt: SQLiteTime.string(now.addingTimeInterval(30)))
        }
        let expected = try await panel.areas.database.read { db in
            try Int64.fetchAll(
                db,
                sql: """
                    SELECT id FROM users WHERE last_active_at >= datetime('now', '-7 days') AND plan = 'premium'
                      AND status <> 'deleted'
                    ORDER BY last_active_at DESC, id DESC LIMIT 50
                    """)
        }
        try await panel.test { client in
            let session = try await panel.signIn(client)
            let page = try await client.get("/activity?bucket=active&plan=premium", cookie: session)
            #expect(page.status == .ok)
            let shown = page.text.matches(of: /<td data-label="Email">(?:<div class="cell">)?<a href="\/users\/(\d+)"/)
                .compactMap { Int64($0.1) }
            #expect(shown == expected && shown.count == 50)
            #expect(page.text.contains("50 on this page") && !page.text.contains("further on"))
        }
    }

    /// Users whose last activity is far ahead or no time are in no list, and the page says
    /// how many there are rather than leaving the lists short without a word.
    @Test func usersInNoListAreCountedOnThePage() async throws {
        let panel = try await TestPanel(areas: [.support])
        defer { panel.remove() }
        try await DatabaseQueue(path: panel.temp.path).write { db in
            try db.execute(
                sql: """
                    INSERT INTO users (id, email, password_hash, created_at, last_active_at) VALUES
                      (910001, 'ahead@odd.test', 'x', '2026-01-01 00:00:00', '2031-05-05 10:00:00'),
                      (910002, 'notime@odd.test', 'x', '2026-01-01 00:00:00', 'yesterday')
                    """)
        }
        try await panel.areas.support.dashboard.refresh(full: true)
        let snapshot = try await panel.areas.support.dashboard.snapshot()
        #expect(snapshot.totalUsers - snapshot.usersByActivity.values.reduce(0, +) == 2)
        try await panel.test { client in
            let session = try await panel.signIn(client)
            let page = try await client.get("/activity", cookie: session)
            #expect(
                page.text.contains("2 users have a last activity more than a day ahead of now, or one that is no time"))
            #expect(!page.text.contains("ahead@odd.test"), "not among the active")
        }
    }

    @Test func aPageStoppedOnItsBudgetExplainsItsNextLink() {
        let viewer = Viewer(
            identity: StaffIdentity(adminID: 1, email: "boss@example.com", role: .admin, hasTwoFactor: true),
            csrfToken: "t")
        let model = ActivityListModel(
            form: ActivityForm(fields: ["bucket": "active", "plan": "premium"]),
            query: ActivityListQuery(UserFilter(bucket: .active, plan: .premium)),
            size: ListSize(value: 60, isEstimate: true, margin: 20),
            page: ActivityPage(
                users: [], next: ActivityCursor(key: "2026-01-01 00:00:00", id: 7), stoppedOnBudget: true,
                candidatesRead: 50_000),
            problems: [])
        let page = String(
            decoding: HTMLDocument(root: ActivityListView(model: model, viewer: viewer).content).render(), as: UTF8.self
        )
        #expect(!page.contains("0 on this page"))
        #expect(page.contains("None among the 50,000 users this page read; the rest are further on"))
        #expect(page.contains("The rest are further on: this page read 50,000 users of this list"))
        #expect(page.contains(">Next page</a>"))
    }
}
