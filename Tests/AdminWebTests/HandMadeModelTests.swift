import Foundation
import HTMLRender
import Testing

@testable import AdminDomain
@testable import AdminWeb

/// Views render from models made by hand: no database, no request, no services.
@Suite(.timeLimit(.minutes(20))) struct ViewsFromHandMadeModels {
    let viewer = Viewer(
        identity: StaffIdentity(adminID: 1, email: "boss@example.com", role: .admin, hasTwoFactor: true),
        csrfToken: "token-1")

    func html(_ view: some HTMLComponent) -> String {
        String(decoding: HTMLDocument(root: view.content).render(), as: UTF8.self)
    }

    static let hostile = UserSummary(
        id: 42, email: "<b>x</b>@odd.test", displayName: "Zoë \"<script>\"", plan: .known(.premium),
        status: .unknown("banned"), createdAt: "2025-01-01 00:00:00", lastActiveAt: nil, itemCount: 1_000)

    @Test func theStaffListShowsEachAccountAndItsActions() {
        func admin(_ id: Int64, _ email: String, _ role: Role, disabled: String? = nil) -> Admin {
            Admin(
                id: id, email: email, passwordHash: "never shown", role: role,
                createdAt: PanelTime(text: "2026-01-01 00:00:00")!,
                disabledAt: disabled.flatMap(PanelTime.init(text:)), passwordExpiresAt: nil)
        }
        let model = StaffModel(
            accounts: [
                StaffAccount(admin: admin(1, "boss@example.com", .admin), hasTwoFactor: true),
                StaffAccount(
                    admin: admin(2, "gone@example.com", .support, disabled: "2026-02-02 00:00:00"),
                    hasTwoFactor: false),
            ],
            message: .init(notice: "Account created.", oneTimePassword: ("new@example.com", "pass <word>")))
        let page = html(StaffView(model: model, viewer: viewer))
        #expect(
            page.contains("2 accounts")
                && page.contains("<span class=\"badge tone-bad\">disabled</span> since 2026-02-02 00:00:00"))
        #expect(
            page.contains("/admins/2/enable") && page.contains("href=\"/admins/1/disable\""),
            "disabling asks first: a link")
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
        let model = UserSearchModel(
            form: UserSearchForm(fields: ["q": "<b>"]),
            result: UserSearchResult(users: [Self.hostile], next: nil, scanned: nil))
        let page = html(UserSearchView(model: model, viewer: viewer))
        #expect(page.contains("/users/42") && page.contains("1,000"))
        #expect(!page.contains("<b>x"))
    }

    @Test func theDashboardEscapesWhatTheAppStoredAndSaysWhenAChartIsEmpty() {
        let now = SQLiteTime.date("2026-11-23 10:00:00")!
        var snapshot = DashboardSnapshot(
            tally: DashboardTally(window: DayWindow(first: 20_000), countedAt: now), now: now)
        let hostile = DashboardChart(
            id: .categories, title: "Food items by category", kind: .bar, axis: .categories, valueLabel: "Items",
            labels: ["<script>alert(1)</script>", "Dairy"],
            series: [ChartSeries(name: "Items", values: [3, 1_000_000])],
            note: "n", asOf: now)
        snapshot.charts = snapshot.charts.map { $0.id == .categories ? hostile : $0 }
        let model = DashboardModel(
            snapshot: snapshot, range: .week, refreshEvery: 60, fullCountEvery: 900, countStartedAt: nil, refreshes: nil
        )
        let body = DashboardBody(model: model).content.renderString()
        #expect(!body.contains("<script>") && body.contains("&lt;script&gt;"))
        #expect(body.contains("1,000,000"), "the table under the chart")
        #expect(body.contains("Nothing to show for this period yet."), "the empty charts say so")
        let page = html(DashboardView(model: model, viewer: viewer, body: body))
        #expect(page.contains("Period:") && page.contains("href=\"/?range=365\""))
    }

    @Test func failedSignInsDescribeEachCountInWords() {
        let model = SignInFailuresModel(
            entries: [
                ThrottleEntry(
                    key: ThrottleKey(kind: .pair, email: "a@example.com", address: "10.0.0.1")!, failures: 4,
                    lastFailureAt: PanelTime(text: "2026-11-22 10:00:00")!, lockedUntil: nil)
            ],
            recent: [])
        let page = html(SignInFailuresView(model: model, viewer: viewer))
        #expect(page.contains("a@example.com from 10.0.0.1") && page.contains(">Clear<"))
    }
}
