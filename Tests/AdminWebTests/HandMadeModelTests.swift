@testable import AdminDomain
@testable import AdminWeb
import Foundation
import HTMLRender
import Testing

/// Views render from models made by hand: no database, no request, no services.
@Suite struct ViewsFromHandMadeModels {
    let viewer = Viewer(identity: StaffIdentity(adminID: 1, email: "boss@example.com", role: .admin, hasTwoFactor: true),
                        csrfToken: "token-1")

    func html(_ view: some HTMLComponent) -> String {
        String(decoding: HTMLDocument(root: view.content).render(), as: UTF8.self)
    }

    static let hostile = UserSummary(id: 42, email: "<b>x</b>@odd.test", displayName: "Zoë \"<script>\"", plan: .known(.premium),
                                     status: .unknown("banned"), createdAt: "2025-01-01 00:00:00", lastActiveAt: nil, itemCount: 1_000)

    @Test func theStaffListShowsEachAccountAndItsActions() {
        func admin(_ id: Int64, _ email: String, _ role: Role, disabled: String? = nil) -> Admin {
            Admin(id: id, email: email, passwordHash: "never shown", role: role, createdAt: "2026-01-01 00:00:00",
                  disabledAt: disabled, passwordExpiresAt: nil)
        }
        let model = StaffModel(accounts: [StaffAccount(admin: admin(1, "boss@example.com", .admin), hasTwoFactor: true),
                                          StaffAccount(admin: admin(2, "gone@example.com", .support, disabled: "2026-02-02 00:00:00"),
                                                       hasTwoFactor: false)],
                               message: .init(notice: "Account created.", oneTimePassword: ("new@example.com", "pass <word>")))
        let page = html(StaffView(model: model, viewer: viewer))
        #expect(page.contains("2 accounts") && page.contains("disabled since 2026-02-02 00:00:00"))
        #expect(page.contains("/admins/2/enable") && page.contains("href=\"/admins/1/disable\""), "disabling asks first: a link")
        #expect(page.components(separatedBy: ">Reset two-factor…<").count == 2, "only for the account that has it")
        #expect(page.contains("pass &lt;word&gt;") && !page.contains("never shown"))
    }

    @Test func anActivityListShowsItsEstimateRowsAndProblems() {
        let model = ActivityListModel(
            form: ActivityForm(fields: ["bucket": "never"]), query: ActivityListQuery(UserFilter(bucket: .never)),
            size: ListSize(value: 1_234, isEstimate: true),
            page: ActivityPage(users: [Self.hostile], next: ActivityCursor(key: nil, id: 42), stoppedOnBudget: false),
            problems: ["Signed up from must be a date written YYYY-MM-DD."])
        let page = html(ActivityListView(model: model, viewer: viewer))
        #expect(page.contains("About 1,234 users"))
        #expect(page.contains("&lt;b&gt;x&lt;/b&gt;@odd.test") && !page.contains("<script>"))
        #expect(page.contains("unknown (banned)") && page.contains("premium"))
        #expect(page.contains("after_id=42") && page.contains("Signed up from must be a date"))
    }

    @Test func searchResultsShowItemCountsCappedAndLinkToProfiles() {
        let model = UserSearchModel(form: UserSearchForm(fields: ["q": "<b>"]),
                                    result: UserSearchResult(users: [Self.hostile], next: nil, scanned: nil))
        let page = html(UserSearchView(model: model, viewer: viewer))
        #expect(page.contains("/users/42") && page.contains("1,000"))
        #expect(!page.contains("<b>x"))
    }

    @Test func theDashboardShowsItsFigures() {
        let stats = DashboardStats(totalUsers: 1_000_000, suspendedUsers: 12, premiumUsers: 250_000, activeUsers7Days: 400_000,
                                   foodItems: 11_000_000, documents: 1_000_000, signUpsPerDay: [], computedAt: Date())
        let page = html(DashboardView(model: DashboardModel(stats: stats, maxAge: 300), viewer: viewer))
        #expect(page.contains("1,000,000") && page.contains("25.0%") && page.contains("12,000,000"))
    }

    @Test func failedSignInsDescribeEachCountInWords() {
        let model = SignInFailuresModel(
            entries: [ThrottleEntry(key: "pair:a@example.com|10.0.0.1", failures: 4, lastFailureAt: "2026-11-22 10:00:00", lockedUntil: nil)],
            recent: [])
        let page = html(SignInFailuresView(model: model, viewer: viewer))
        #expect(page.contains("a@example.com from 10.0.0.1") && page.contains(">Clear<"))
    }
}
