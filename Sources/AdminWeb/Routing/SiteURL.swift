import AdminDomain
import Foundation

/// Every URL of the panel: routes are registered from these and links are built from them,
/// so a renamed page cannot leave a dead link behind.
enum SiteURL: Sendable, Equatable {
    case dashboard
    /// The dashboard over another range than the standard 30 days; `countStartedAt`: an
    /// admin asked for a full count at that second, and the page follows it.
    case dashboardRange(DashboardRange, countStartedAt: Int64? = nil)
    /// One chart's numbers as CSV.
    case dashboardCSV(DashboardChart.ID?, DashboardRange)
    case dashboardRefresh
    /// The reminder health page over one range (the last 24 hours unless said).
    case reminders(ReminderRange = .day)
    /// Its figures as CSV.
    case remindersCSV(ReminderRange)
    /// `sessionEnded`: the browser came with a session that had run out; the page says so.
    case login(next: String? = nil, sessionEnded: Bool = false)
    case secondFactor(next: String? = nil)
    case logout
    case password
    /// The password page after a change: a redirect's target, so a refresh sends nothing again.
    case passwordChanged
    case twoFactor
    /// The two-factor page after a change, saying which.
    case twoFactorDone(TwoFactorNotice)
    case beginTwoFactor
    case confirmTwoFactor
    case newRecoveryCodes
    case disableTwoFactor
    case accountSessions(ended: Int? = nil)
    case endOtherSessions
    /// Newest first; the page just after (Next, older) or before (Previous, newer) an entry's id.
    case auditLog(AuditFilter = AuditFilter(), after: Int64? = nil, before: Int64? = nil)
    case auditCSV(AuditFilter)
    /// By email unless `sort` says by creation; `order` either way.
    case staff(notice: StaffNotice? = nil, sort: StaffModel.SortKey = .email, order: SortOrder = .ascending)
    /// One account's row on the staff page.
    case staffMember(id: Int64)
    case createStaff
    case staffAction(id: Int64?, StaffAction)
    case endAllSessions
    case signInFailures(cleared: Bool = false)
    case clearSignInFailure
    case users(UserSearchForm = UserSearchForm())
    case userSuggestions
    case user(id: Int64?)
    /// A user's items, filtered and paged, on a page of their own.
    case userItems(id: Int64?, ItemsForm = ItemsForm())
    case userActivity(id: Int64?, ActivityLogForm = ActivityLogForm())
    /// All of a user's reminders, by status and item, page by page.
    case userReminders(id: Int64?, RemindersForm = RemindersForm())
    case activity(ActivityForm = ActivityForm())
    case activityCSV(ActivityForm)
    /// Newest first unless `order` says oldest first; only those in `status` when one is
    /// given; the page just before (Previous) or after (Next) a campaign id. `deleted`: after a draft's deletion.
    case campaigns(
        before: Int64? = nil, status: CampaignShownStatus? = nil, deleted: Bool = false, after: Int64? = nil,
        order: SortOrder = .descending)
    case newCampaign
    /// GET: the composer filled with a draft; POST: saves it.
    case campaignEdit(id: Int64?)
    /// The test users, who alone get test sends; POST adds one by email.
    case testUsers(notice: String? = nil)
    case removeTestUser(userID: Int64?)
    /// The global control group's share and its history; `changed` after a change.
    case globalControl(changed: Bool = false)
    /// `sample`, `language` and `platform` choose what the draft's message preview shows.
    case campaign(id: Int64?, notice: CampaignNotice? = nil, preview: MessagePreviewChoice = MessagePreviewChoice())
    case campaignTestSend(id: Int64?)
    /// GET: the confirmation page; POST: the launch. `recounted`: a launch was refused for
    /// its old count, and the page says so.
    case campaignConfirm(id: Int64?, recounted: Bool = false)
    case campaignAction(id: Int64?, CampaignAction)
    case campaignEvents(id: Int64?)
    /// POST: marketing chooses the winner test's variant for the rest.
    case campaignWinner(id: Int64?)
    /// The impact report as CSV.
    case campaignReport(id: Int64?)
    /// Newest first. `notice`: what just happened (after a draft's deletion).
    case journeys(notice: JourneyNotice? = nil)
    case newJourney
    case journey(id: Int64?, notice: JourneyNotice? = nil)
    /// GET: the form filled with a draft; POST: saves it.
    case journeyEdit(id: Int64?)
    case journeyAction(id: Int64?, JourneyAction)
    /// The report per day and in total as CSV.
    case journeyReport(id: Int64?)
    case suggestScript
    case codesScript
    case composerScript
    case campaignScript
    case stylesheet
    case favicon
    case health

    /// The route path, without query.
    public var path: String {
        switch self {
        case .dashboard, .dashboardRange: "/"
        case .dashboardCSV: "/dashboard.csv"
        case .dashboardRefresh: "/dashboard/refresh"
        case .reminders: "/reminders"
        case .remindersCSV: "/reminders.csv"
        case .login: "/login"
        case .secondFactor: "/login/code"
        case .logout: "/logout"
        case .password, .passwordChanged: "/account/password"
        case .twoFactor, .twoFactorDone: "/account/two-factor"
        case .beginTwoFactor: "/account/two-factor/begin"
        case .confirmTwoFactor: "/account/two-factor/confirm"
        case .newRecoveryCodes: "/account/two-factor/recovery-codes"
        case .disableTwoFactor: "/account/two-factor/disable"
        case .accountSessions: "/account/sessions"
        case .endOtherSessions: "/account/sessions/end-others"
        case .auditLog: "/audit"
        case .auditCSV: "/audit.csv"
        case .staff, .staffMember: "/admins"
        case .createStaff: "/admins/create"
        case .staffAction(let id, let action): "/admins/\(id.map(String.init) ?? ":id")/\(action.rawValue)"
        case .endAllSessions: "/admins/end-all-sessions"
        case .signInFailures: "/admins/sign-in-failures"
        case .clearSignInFailure: "/admins/sign-in-failures/clear"
        case .users: "/users"
        case .userSuggestions: "/users/suggestions"
        case .user(let id): "/users/\(id.map(String.init) ?? ":id")"
        case .userItems(let id, _): "/users/\(id.map(String.init) ?? ":id")/items"
        case .userActivity(let id, _): "/users/\(id.map(String.init) ?? ":id")/activity"
        case .userReminders(let id, _): "/users/\(id.map(String.init) ?? ":id")/reminders"
        case .activity: "/activity"
        case .activityCSV: "/activity.csv"
        case .campaigns: "/campaigns"
        case .newCampaign: "/campaigns/new"
        case .campaign(let id, _, _): "/campaigns/\(id.map(String.init) ?? ":id")"
        case .campaignEdit(let id): "/campaigns/\(id.map(String.init) ?? ":id")/edit"
        case .testUsers: "/campaigns/test-users"
        case .globalControl: "/settings/global-control"
        case .removeTestUser(let id): "/campaigns/test-users/\(id.map(String.init) ?? ":id")/remove"
        case .campaignTestSend(let id): "/campaigns/\(id.map(String.init) ?? ":id")/test-send"
        case .campaignConfirm(let id, _): "/campaigns/\(id.map(String.init) ?? ":id")/confirm"
        case .campaignAction(let id, let action): "/campaigns/\(id.map(String.init) ?? ":id")/\(action.rawValue)"
        case .campaignEvents(let id): "/campaigns/\(id.map(String.init) ?? ":id")/events"
        case .campaignWinner(let id): "/campaigns/\(id.map(String.init) ?? ":id")/winner"
        case .campaignReport(let id): "/campaigns/\(id.map(String.init) ?? ":id")/report.csv"
        case .journeys: "/journeys"
        case .newJourney: "/journeys/new"
        case .journey(let id, _): "/journeys/\(id.map(String.init) ?? ":id")"
        case .journeyEdit(let id): "/journeys/\(id.map(String.init) ?? ":id")/edit"
        case .journeyAction(let id, let action): "/journeys/\(id.map(String.init) ?? ":id")/\(action.rawValue)"
        case .journeyReport(let id): "/journeys/\(id.map(String.init) ?? ":id")/report.csv"
        case .suggestScript: "/static/js/suggest.js"
        case .codesScript: "/static/js/codes.js"
        case .composerScript: "/static/js/composer.js"
        case .campaignScript: "/static/js/campaign.js"
        case .stylesheet: "/static/css/app.css"
        case .favicon: "/static/favicon.svg"
        case .health: "/health"
        }
    }

    /// The link to put in a page.
    public var href: String {
        switch self {
        case .dashboardRange(let range, let countStartedAt):
            return withQuery(
                (range == .standard ? [] : [URLQueryItem(name: "range", value: String(range.days))])
                    + (countStartedAt.map { [URLQueryItem(name: "refreshing", value: String($0))] } ?? []))
        case .dashboardCSV(let chart, let range):
            return withQuery(
                (chart.map { [URLQueryItem(name: "chart", value: $0.rawValue)] } ?? [])
                    + [URLQueryItem(name: "range", value: String(range.days))])
        case .reminders(let range):
            return range == .day ? path : withQuery("range", range.rawValue)
        case .remindersCSV(let range):
            return withQuery("range", range.rawValue)
        case .login(let next, let sessionEnded):
            let next = next.flatMap { Self.isSafeRedirect($0) && $0 != "/" ? $0 : nil }
            return withQuery(
                (sessionEnded ? [URLQueryItem(name: "ended", value: "1")] : [])
                    + (next.map { [URLQueryItem(name: "next", value: $0)] } ?? []))
        case .secondFactor(let next?) where Self.isSafeRedirect(next) && next != "/":
            return withQuery("next", next)
        case .passwordChanged:
            return withQuery("notice", "changed")
        case .twoFactorDone(let notice):
            return withQuery("notice", notice.rawValue)
        case .signInFailures(cleared: true):
            return withQuery("cleared", "1")
        case .accountSessions(let ended?):
            return withQuery("ended", String(ended))
        case .auditLog(let filter, let after, let before):
            return withQuery(
                filter.queryItems + (after.map { [URLQueryItem(name: "after", value: String($0))] } ?? [])
                    + (before.map { [URLQueryItem(name: "before", value: String($0))] } ?? []))
        case .auditCSV(let filter):
            return withQuery(filter.queryItems)
        case .staff(let notice, let sort, let order):
            return withQuery(
                (notice.map { [URLQueryItem(name: "notice", value: $0.rawValue)] } ?? [])
                    + (sort == .email && order == .ascending
                        ? []
                        : [
                            URLQueryItem(name: "sort", value: sort.rawValue),
                            URLQueryItem(name: "dir", value: order.rawValue),
                        ]))
        case .staffMember(let id):
            return path + "#" + Self.staffRowID(id)
        case .users(let form):
            return withQuery(form.queryItems)
        case .userItems(_, let form):
            return withQuery(form.queryItems)
        case .userActivity(_, let form):
            return withQuery(form.queryItems)
        case .userReminders(_, let form):
            return withQuery(form.queryItems)
        case .activity(let form), .activityCSV(let form):
            return withQuery(form.queryItems)
        case .campaigns(let before, let status, let deleted, let after, let order):
            return withQuery(
                (status.map { [URLQueryItem(name: "status", value: $0.rawValue)] } ?? [])
                    + (order == .descending
                        ? []
                        : [
                            URLQueryItem(name: "sort", value: "created"),
                            URLQueryItem(name: "dir", value: order.rawValue),
                        ])
                    + (before.map { [URLQueryItem(name: "before", value: String($0))] } ?? [])
                    + (after.map { [URLQueryItem(name: "after", value: String($0))] } ?? [])
                    + (deleted ? [URLQueryItem(name: "notice", value: "deleted")] : []))
        case .campaign(_, let notice, let preview):
            return withQuery((notice?.queryItems ?? []) + preview.queryItems)
        case .campaignConfirm(id: _, recounted: true):
            return withQuery("recounted", "1")
        case .journeys(let notice?), .journey(_, let notice?):
            return withQuery("notice", notice.rawValue)
        case .testUsers(let notice?):
            return withQuery("notice", notice)
        case .globalControl(changed: true):
            return withQuery("notice", "changed")
        default:
            return path
        }
    }

    private func withQuery(_ name: String, _ value: String) -> String {
        withQuery([URLQueryItem(name: name, value: value)])
    }

    private func withQuery(_ items: [URLQueryItem]) -> String {
        guard !items.isEmpty else { return path }
        var components = URLComponents()
        components.path = path
        components.queryItems = items
        // URLComponents leaves "+" as is, which a form decoder reads as a space.
        return (components.string ?? path).replacingOccurrences(of: "+", with: "%2B")
    }

    /// The id of an account's row on the staff page, which `staffMember` links to.
    static func staffRowID(_ id: Int64) -> String { "staff-\(id)" }

    /// Only a path on this site: no scheme, no `//host`, no backslash tricks.
    public static func isSafeRedirect(_ target: String) -> Bool {
        target.hasPrefix("/") && !target.hasPrefix("//") && !target.contains("\\")
            && !target.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }
}
