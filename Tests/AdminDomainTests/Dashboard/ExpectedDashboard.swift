import Foundation
import GRDB

@testable import AdminDomain

/// The dashboard's figures worked out again in plain SQL, straight from the rows, by the
/// definitions the page states: what the tally and its arithmetic must agree with.
struct ExpectedDashboard {
    let db: Database
    let now: String
    let today: String

    init(_ db: Database, now: Date) {
        self.db = db
        self.now = SQLiteTime.string(now)
        today = String(self.now.prefix(10))
    }

    /// A readable day of a timestamp column (the backend's two formats), else NULL.
    static func day(_ column: String) -> String { "(CASE WHEN length(\(column)) IN (10, 19) THEN date(\(column)) END)" }
    static func unix(_ column: String) -> String {
        "(CASE WHEN length(\(column)) IN (10, 19) THEN unixepoch(\(column)) END)"
    }
    static func week(_ day: String) -> String {
        "date(\(day), '-' || ((CAST(strftime('%w', \(day)) AS INTEGER) + 6) % 7) || ' days')"
    }

    func int(_ sql: String, _ arguments: StatementArguments = []) throws -> Int {
        try Int.fetchOne(db, sql: sql, arguments: arguments) ?? 0
    }

    func counts(_ sql: String, _ arguments: StatementArguments = []) throws -> [String: Int] {
        var result: [String: Int] = [:]
        for row in try Row.fetchAll(db, sql: sql, arguments: arguments) {
            guard let label = row[0] as String? else { continue }
            result[label, default: 0] += row[1] as Int
        }
        return result
    }

    func date(_ day: String, plus days: Int) throws -> String {
        try String.fetchOne(db, sql: "SELECT date(?, ?)", arguments: [day, "\(days) days"])!
    }

    // MARK: Series

    func signUps() throws -> [String: Int] {
        try counts("SELECT \(Self.day("created_at")), COUNT(*) FROM users WHERE status <> 'deleted' GROUP BY 1")
    }

    func activeUsers() throws -> [String: Int] {
        try counts(
            """
            SELECT \(Self.day("e.created_at")), COUNT(DISTINCT e.user_id) FROM activity_events e
            JOIN users u ON u.id = e.user_id AND u.status <> 'deleted' WHERE typeof(e.user_id) = 'integer' GROUP BY 1
            """)
    }

    func foodAdded(source: String) throws -> [String: Int] {
        try counts("SELECT \(Self.day("created_at")), COUNT(*) FROM food_items WHERE source = ? GROUP BY 1", [source])
    }

    /// Expired, expiring within 30 days, safe.
    func expiryStatus(table: String) throws -> [Int] {
        let soon = try date(today, plus: 30)
        let open = table == "food_items" ? "deleted_at IS NULL AND consumed_at IS NULL" : "deleted_at IS NULL"
        let row = try Row.fetchOne(
            db,
            sql: """
                SELECT COUNT(*) FILTER (WHERE e < :today), COUNT(*) FILTER (WHERE e >= :today AND e <= :soon),
                       COUNT(*) FILTER (WHERE e > :soon)
                FROM (SELECT \(Self.day("expiry_date")) AS e FROM \(table) WHERE \(open)) WHERE e IS NOT NULL
                """, arguments: ["today": today, "soon": soon])!
        return [row[0], row[1], row[2]]
    }

    /// Not consumed, and not deleted before the expiry day (a deletion is never before the
    /// creation), by the week of the expiry day, up to yesterday.
    func foodWastedByWeek() throws -> [String: Int] {
        try counts(
            """
            SELECT 'Week of ' || \(Self.week("e")), COUNT(*) FROM (
              SELECT \(Self.day("expiry_date")) AS e, deleted_at,
                     MAX(COALESCE(\(Self.day("deleted_at")), '0000'),
                         COALESCE(\(Self.day("created_at")), '0000')) AS gone
              FROM food_items WHERE consumed_at IS NULL)
            WHERE e IS NOT NULL AND e < ? AND (deleted_at IS NULL OR gone >= e) GROUP BY 1
            """, [today])
    }

    func grouped(_ sql: String) throws -> [String: Int] { try counts(sql) }

    func premiumAtWeekEnds(_ weeks: [String]) throws -> [String: Int] {
        var result: [String: Int] = [:]
        for label in weeks {
            let start = String(label.dropFirst("Week of ".count))
            let end = min(try date(start, plus: 6), today)
            result[label] = try int(
                """
                SELECT COUNT(*) FROM subscriptions WHERE status <> 'refunded'
                AND \(Self.day("started_at")) <= :end AND \(Self.day("current_period_end")) > :end
                """, ["end": end])
        }
        return result
    }

    func upgradesByWeek() throws -> [String: Int] {
        try counts(
            "SELECT 'Week of ' || \(Self.week(Self.day("started_at"))), COUNT(*) "
                + "FROM subscriptions WHERE \(Self.day("started_at")) IS NOT NULL GROUP BY 1"
        )
    }

    func monthlyRevenue() throws -> [String: Int] {
        var result: [String: Int] = [:]
        for row in try Row.fetchAll(
            db,
            sql: """
                SELECT currency, SUM(CASE plan_type WHEN 'yearly' THEN price_cents / 12.0 ELSE price_cents END)
                  FROM subscriptions
                WHERE status = 'active' AND \(Self.unix("current_period_end")) > unixepoch(:now)
                  AND \(Self.unix("started_at")) IS NOT NULL
                  AND typeof(price_cents) = 'integer' AND currency GLOB '[A-Z][A-Z][A-Z]' AND length(currency) = 3
                GROUP BY currency
                """, arguments: ["now": now])
        {
            result[row[0]] = Int((row[1] as Double).rounded())
        }
        return result
    }

    func pushes() throws -> (accepted: [String: Int], received: [String: Int], opened: [String: Int]) {
        (
            try counts(
                "SELECT \(Self.day("updated_at")), COUNT(*) FROM panel_deliveries WHERE state = 'accepted' GROUP BY 1"),
            try counts(
                "SELECT substr(created_at, 1, 10), COUNT(DISTINCT delivery_id) "
                    + "FROM push_receipts WHERE event = 'received' GROUP BY 1"
            ),
            try counts(
                "SELECT substr(created_at, 1, 10), COUNT(DISTINCT delivery_id) "
                    + "FROM push_receipts WHERE event = 'opened' GROUP BY 1"
            )
        )
    }

    // MARK: Figures

    func distinctActive(from: String, to: String) throws -> Int {
        try int(
            """
            SELECT COUNT(DISTINCT e.user_id) FROM activity_events e JOIN users u ON u.id = e.user_id
              AND u.status <> 'deleted'
            WHERE typeof(e.user_id) = 'integer' AND \(Self.day("e.created_at")) BETWEEN ? AND ?
            """, [from, to])
    }

    /// Distinct users (not deleted) with an event from the start of `fromDay` up to
    /// `secondsBeforeNow` before now, both included.
    func distinctActive(fromDay: String, upToSecondsBeforeNow back: Int) throws -> Int {
        try int(
            """
            SELECT COUNT(DISTINCT e.user_id) FROM activity_events e JOIN users u ON u.id = e.user_id
              AND u.status <> 'deleted'
            WHERE typeof(e.user_id) = 'integer' AND \(Self.unix("e.created_at")) BETWEEN unixepoch(?)
              AND unixepoch(?) - ?
            """, [fromDay, now, back])
    }

    /// Users not deleted who signed up from the start of `fromDay` up to `back` seconds before now.
    func signUps(fromDay: String, upToSecondsBeforeNow back: Int) throws -> Int {
        try int(
            """
            SELECT COUNT(*) FROM users WHERE status <> 'deleted' AND \(Self.unix("created_at")) BETWEEN unixepoch(?)
              AND unixepoch(?) - ?
            """, [fromDay, now, back])
    }

    func usersThen(_ then: String) throws -> Int {
        try int(
            "SELECT COUNT(*) FROM users WHERE status <> 'deleted' AND COALESCE(\(Self.day("created_at")), '0000') <= ?",
            [then])
    }

    func itemsTracked(at then: String?) throws -> Int {
        guard let then else {
            return try int(
                "SELECT (SELECT COUNT(*) FROM food_items WHERE deleted_at IS NULL) + (SELECT COUNT(*) "
                    + "FROM documents WHERE deleted_at IS NULL)"
            )
        }
        let live = """
            COALESCE(\(Self.day("created_at")), '0000') <= :then AND (deleted_at IS NULL
              OR MAX(COALESCE(\(Self.day("deleted_at")), '0000'), COALESCE(\(Self.day("created_at")), '0000')) > :then)
            """
        return try int(
            "SELECT (SELECT COUNT(*) FROM food_items WHERE \(live)) + (SELECT COUNT(*) FROM documents WHERE \(live))",
            ["then": then])
    }

    func subscriptionsInForce(on day: String) throws -> Int {
        try int(
            """
            SELECT COUNT(*) FROM subscriptions WHERE status <> 'refunded'
            AND \(Self.day("started_at")) <= :day AND \(Self.day("current_period_end")) > :day
            AND \(Self.unix("current_period_end")) > \(Self.unix("started_at"))
            """, ["day": day])
    }

    /// Users who signed up at least `days` ago, and those last active `days` or more after.
    func rollingRetention(days: Int) throws -> (Int, Int) {
        let row = try Row.fetchOne(
            db,
            sql: """
                SELECT COUNT(*),
                       COUNT(*) FILTER (WHERE \(Self.unix("last_active_at")) - \(Self.unix("created_at")) >= :span)
                FROM users WHERE status <> 'deleted' AND \(Self.unix("created_at")) <= unixepoch(:now) - :span
                """, arguments: ["span": days * 86_400, "now": now])!
        return (row[1], row[0])
    }

    func cohort(start: String) throws -> (users: Int, active: [Int]) {
        let end = try date(start, plus: 6)
        let members =
            "SELECT id FROM users WHERE status <> 'deleted' AND \(Self.day("created_at")) "
            + "BETWEEN '\(start)' AND '\(end)'"
        var active: [Int] = []
        for week in 1...12 {
            let from = try date(start, plus: 7 * week)
            let to = try date(start, plus: 7 * week + 6)
            active.append(
                try int(
                    """
                    SELECT COUNT(DISTINCT user_id) FROM activity_events WHERE user_id IN (\(members))
                    AND \(Self.day("created_at")) BETWEEN ? AND ?
                    """, [from, to]))
        }
        return (try int("SELECT COUNT(*) FROM (\(members))"), active)
    }

    func conversionWithinQuarter() throws -> (Int, Int) {
        let row = try Row.fetchOne(
            db,
            sql: """
                SELECT COUNT(*), COUNT(*) FILTER (WHERE first - signed <= 90 * 86400) FROM (
                  SELECT \(Self.unix("u.created_at")) AS signed,
                         (SELECT MIN(\(Self.unix("s.started_at"))) FROM subscriptions s WHERE s.user_id = u.id) AS first
                  FROM users u WHERE u.status <> 'deleted') WHERE signed <= unixepoch(?) - 90 * 86400
                """, arguments: [now])!
        return (row[1], row[0])
    }

    func firstWeekItems() throws -> (Int, Int) {
        let window = "\(Self.unix("i.created_at")) >= u_signed AND \(Self.unix("i.created_at")) < u_signed + 7 * 86400"
        let row = try Row.fetchOne(
            db,
            sql: """
                SELECT COUNT(*), SUM((SELECT COUNT(*) FROM food_items i WHERE i.user_id = u_id AND \(window))
                                   + (SELECT COUNT(*) FROM documents i WHERE i.user_id = u_id AND \(window)))
                FROM (SELECT id AS u_id, \(Self.unix("created_at")) AS u_signed FROM users WHERE status <> 'deleted')
                WHERE u_signed <= unixepoch(?) - 7 * 86400
                """, arguments: [now])!
        return ((row[1] as Int?) ?? 0, row[0])
    }

    func usersAtTheLimit(plan: String) throws -> Int {
        try int(
            """
            SELECT COUNT(*) FROM users u WHERE u.status <> 'deleted' AND u.plan = ? AND
              (SELECT COUNT(*) FROM food_items f WHERE f.user_id = u.id AND f.deleted_at IS NULL
                AND f.consumed_at IS NULL)
              + (SELECT COUNT(*) FROM documents d WHERE d.user_id = u.id AND d.deleted_at IS NULL) >= 50
            """, [plan])
    }
}
