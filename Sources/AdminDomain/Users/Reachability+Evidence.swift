import Foundation
import GRDB

/// What the verdict reads beyond the profile: the user's reminders of the last 30 days,
/// their campaign deliveries of the last 30 days and the campaigns that held them out. All
/// from indexes by user: (user_id, scheduled_for), (user_id, updated_at), and the members'
/// (campaign_id, user_id) key for each recently launched campaign.
extension Reachability {
    public struct ReminderHistory: Sendable, Equatable {
        /// Reminders whose time (a readable one) fell in the last 30 days, up to now.
        public var due = 0, sent = 0, late = 0, failed = 0, cancelled = 0, overdue = 0
        /// The latest time due of each kind of trouble, as stored.
        public var latestLate: String?, latestFailed: String?, latestCancelled: String?, latestOverdue: String?

        public init() {}
    }

    public struct CampaignMiss: Sendable, Equatable {
        public let campaignID: Int64
        public let campaignName: String
        public let deviceID: Int64
        public let state: Stored<DeliveryState>
        public let detail: String?
        public let dueAt: PanelTime
        public let updatedAt: PanelTime
    }

    public struct HeldOut: Sendable, Equatable {
        public let campaignID: Int64
        public let campaignName: String
        public let launchedAt: PanelTime
    }

    public struct Evidence: Sendable, Equatable {
        public var reminders = ReminderHistory()
        /// Deliveries to the user's devices updated in the last 30 days (at most `deliveryLimit`).
        public var pushes = 0
        /// Those of them that did not go out (or wait), newest first.
        public var misses: [CampaignMiss] = []
        public var heldOut: [HeldOut] = []

        public init() {}
    }

    static let deliveryLimit = 50
    /// A stored time the backend writes: anything else is not read as a time.
    static let timePattern = "[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9]"

    static let lateSQL =
        "(status = 'sent' AND sent_at GLOB :pattern "
        + "AND unixepoch(sent_at) - unixepoch(scheduled_for) > \(lateAfterSeconds))"
    /// One pass over the user's reminders of the window, through (user_id, scheduled_for).
    static let remindersSQL = """
        SELECT COUNT(*) AS due, COALESCE(SUM(status = 'sent'), 0) AS sent, COALESCE(SUM(\(lateSQL)), 0) AS late,
               COALESCE(SUM(status = 'failed'), 0) AS failed, COALESCE(SUM(status = 'cancelled'), 0) AS cancelled,
               COALESCE(SUM(\(UserReminders.overdueSQL)), 0) AS overdue,
               MAX(CASE WHEN \(lateSQL) THEN scheduled_for END) AS latest_late,
               MAX(CASE WHEN status = 'failed' THEN scheduled_for END) AS latest_failed,
               MAX(CASE WHEN status = 'cancelled' THEN scheduled_for END) AS latest_cancelled,
               MAX(CASE WHEN \(UserReminders.overdueSQL) THEN scheduled_for END) AS latest_overdue
        FROM reminders INDEXED BY reminders_user
        WHERE user_id = :user AND scheduled_for >= :since AND scheduled_for <= :now AND scheduled_for GLOB :pattern
        """
    /// The user's latest deliveries, through (user_id, updated_at).
    static let deliveriesSQL = """
        SELECT q.campaign_id, COALESCE(NULLIF(c.name, ''), c.title) AS name,
               q.device_id, q.state, q.detail, q.due_at, q.updated_at
        FROM panel_deliveries q INDEXED BY panel_deliveries_user JOIN panel_campaigns c ON c.id = q.campaign_id
        WHERE q.user_id = :user AND q.updated_at >= :since
        ORDER BY q.updated_at DESC, q.id DESC
        LIMIT \(deliveryLimit)
        """
    /// Campaigns launched in the window, each looked up in its members by (campaign_id, user_id).
    static let heldOutSQL = """
        SELECT c.id, COALESCE(NULLIF(c.name, ''), c.title) AS name, c.launched_at
        FROM panel_campaigns c INDEXED BY panel_campaigns_launched
        JOIN panel_campaign_members m ON m.campaign_id = c.id AND m.user_id = :user
        WHERE c.launched_at >= :since AND m.arm = 'holdout' ORDER BY c.launched_at DESC LIMIT 20
        """

    /// The verdict's three statements.
    enum EvidenceQuery: CaseIterable {
        case reminders, deliveries, heldOut

        var text: String {
            switch self {
            case .reminders: Reachability.remindersSQL
            case .deliveries: Reachability.deliveriesSQL
            case .heldOut: Reachability.heldOutSQL
            }
        }
    }

    /// One of the three statements with the values it names, and only those.
    static func evidenceQuery(_ query: EvidenceQuery, userID: Int64, now: Date) -> SQL {
        let all: [String: DatabaseValue] = [
            "user": userID.databaseValue,
            "since": SQLiteTime.string(now.addingTimeInterval(-Double(lookBackDays) * 86_400)).databaseValue,
            "now": SQLiteTime.string(now).databaseValue, "pattern": timePattern.databaseValue,
            "overdueBefore": UserReminders.overdueBefore(now).databaseValue,
        ]
        return SQL(sql: query.text, arguments: StatementArguments(all.filter { query.text.contains(":\($0.key)") }))
    }

    /// The reminders' and campaigns' rows of one user; call inside the profile's read.
    public static func evidence(userID: Int64, now: Date, in db: Database) throws -> Evidence {
        var evidence = Evidence()
        func only(_ query: EvidenceQuery) -> SQLRequest<Row> {
            SQLRequest(literal: evidenceQuery(query, userID: userID, now: now))
        }
        if let row = try Row.fetchOne(db, only(.reminders)) {
            var history = ReminderHistory()
            history.due = row["due"]
            history.sent = row["sent"]
            history.late = row["late"]
            history.failed = row["failed"]
            history.cancelled = row["cancelled"]
            history.overdue = row["overdue"]
            history.latestLate = row["latest_late"]
            history.latestFailed = row["latest_failed"]
            history.latestCancelled = row["latest_cancelled"]
            history.latestOverdue = row["latest_overdue"]
            evidence.reminders = history
        }
        let deliveries = try Row.fetchAll(db, only(.deliveries))
        evidence.pushes = deliveries.count
        evidence.misses = try deliveries.compactMap { row in
            let state: Stored<DeliveryState> = try row.decode(forColumn: "state")
            if state == .known(.accepted) || state == .known(.sending) { return nil }
            return CampaignMiss(
                campaignID: row["campaign_id"], campaignName: try row.decode(forColumn: "name"),
                deviceID: row["device_id"], state: state,
                detail: try row.decode(forColumn: "detail"), dueAt: try row.decode(forColumn: "due_at"),
                updatedAt: try row.decode(forColumn: "updated_at"))
        }
        evidence.heldOut = try Row.fetchAll(db, only(.heldOut)).map {
            HeldOut(
                campaignID: $0["id"], campaignName: try $0.decode(forColumn: "name"),
                launchedAt: try $0.decode(forColumn: "launched_at"))
        }
        return evidence
    }

    static func reminderFindings(_ history: ReminderHistory) -> [Finding] {
        let window = "of the last \(lookBackDays) days"
        guard history.due > 0 else {
            return [
                Finding(
                    .note, "No reminder was due in the last \(lookBackDays) days",
                    evidence: "reminders due in the last \(lookBackDays) days: 0", place: .reminders)
            ]
        }
        func count(_ n: Int) -> String { n == 1 ? "1 reminder" : "\(n.grouped) reminders" }
        let tally = "\(history.sent.grouped) sent of \(history.due.grouped) due \(window)"
        var findings: [Finding] = []
        // Each kind of trouble names when the latest of it was due.
        func trouble(_ number: Int, _ what: String, latest: String?, _ status: UserReminders.Status) {
            guard number > 0 else { return }
            findings.append(
                Finding(
                    .mayNot, what, evidence: "the latest due \(latest ?? "?") UTC; \(tally)", place: .reminders,
                    reminders: status))
        }
        let overdue = history.overdue == 1 ? ("its", "it") : ("their", "them")
        trouble(
            history.overdue,
            "\(count(history.overdue)) \(window) still scheduled over \(overdueAfterSeconds / 60) minutes "
                + "after \(overdue.0) time (overdue): the backend has not sent \(overdue.1)",
            latest: history.latestOverdue, .overdue)
        trouble(history.failed, "\(count(history.failed)) \(window) failed", latest: history.latestFailed, .failed)
        trouble(
            history.late,
            "\(count(history.late)) \(window) sent late "
                + "(over \(lateAfterSeconds) s after \(history.late == 1 ? "its" : "their") time)",
            latest: history.latestLate, .sent)
        trouble(
            history.cancelled, "\(count(history.cancelled)) \(window) cancelled, never sent",
            latest: history.latestCancelled, .cancelled)
        if findings.isEmpty {
            findings.append(
                Finding(
                    .fine, "Every reminder \(window) was sent on time",
                    evidence: "\(tally); none late, failed, cancelled or overdue", place: .reminders))
        }
        return findings
    }

    static let shownMisses = 10

    static func campaignFindings(_ evidence: Evidence) -> [Finding] {
        var findings = evidence.heldOut.map { held in
            Finding(
                .note,
                "Held out on purpose from campaign #\(held.campaignID) “\(held.campaignName)”: "
                    + "its holdout group gets no push, so that the campaign's effect can be measured",
                evidence: "launched \(held.launchedAt) UTC; a member of its holdout group", place: .campaignPushes)
        }
        for miss in evidence.misses.prefix(shownMisses) {
            let campaign = "Campaign #\(miss.campaignID) “\(miss.campaignName)”"
            let device = "device #\(miss.deviceID)"
            let said = "state \(miss.state)\(miss.detail.map { "; \($0)" } ?? ""); updated \(miss.updatedAt) UTC"
            let (mark, what): (Mark, String) =
                switch miss.state {
                case .known(.capped): (.mayNot, "\(campaign) not sent to \(device): the frequency cap")
                case .known(.excluded): (.mayNot, "\(campaign) not sent to \(device): excluded when it fell due")
                case .known(.dead): (.mayNot, "\(campaign) not delivered to \(device): the provider rejected its token")
                case .known(.failed): (.mayNot, "\(campaign) failed for \(device)")
                case .known(.cancelled): (.mayNot, "\(campaign) cancelled before it went to \(device)")
                case .known(.unknown):
                    (.mayNot, "\(campaign) may not have reached \(device): the provider's answer never came")
                case .known(.queued), .known(.retry):
                    (
                        .note,
                        "\(campaign) waits to go to \(device): due \(miss.dueAt) UTC"
                            + ((miss.detail ?? "").contains("quiet hours") ? ", the end of the user's quiet hours" : "")
                    )
                default: (.mayNot, "\(campaign) to \(device): \(miss.state)")
                }
            findings.append(Finding(mark, what, evidence: said, place: .campaignPushes))
        }
        if evidence.misses.count > shownMisses {
            findings.append(
                Finding(
                    .note, "And \(evidence.misses.count - shownMisses) more not sent",
                    evidence: "see the campaign pushes below", place: .campaignPushes))
        }
        if findings.isEmpty {
            findings.append(
                evidence.pushes == 0
                    ? Finding(
                        .note, "No campaign push in the last \(lookBackDays) days",
                        evidence: "none sent to this user's devices and none held out", place: .campaignPushes)
                    : Finding(
                        .fine, "Every campaign push of the last \(lookBackDays) days went out",
                        evidence: "\(evidence.pushes) to this user's devices", place: .campaignPushes))
        }
        return findings
    }
}
