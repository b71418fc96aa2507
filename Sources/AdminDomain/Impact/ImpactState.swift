import Foundation
import GRDB

/// One campaign's running tally: its members as drawn at the freeze, each user's first goal
/// event in the window and whether they opened the push, with cursors on the app's tables'
/// own ids. The first read takes the window from the activity events' time index; after
/// that only rows with a higher id are read, so a row stamped inside the window but written
/// late (a phone's clock, a batch upload) still counts, and no clock is a cursor. Used only
/// inside database reads, on the database's threads, by one refresh at a time.
final class ImpactState: @unchecked Sendable {
    let campaignID: Int64
    let goal: CampaignGoal?
    /// The window (start, end], in seconds since 1970.
    let start: Int64
    let end: Int64
    /// Per user: arm (0 holdout, 1…4 A…D, 5 rest), platform (0 iOS, 1 Android, 2 both, 3 other) << 3 and
    /// timing (0 as scheduled, 1 usual hour, 2 control) << 5.
    private var members: [Int64: UInt8] = [:]
    /// Per user: the time of their first goal event in the window.
    private var converted: [Int64: Int64] = [:]
    private var opened: Set<Int64> = []
    /// Users who opened their push within a day of its send.
    private var openedInDay: Set<Int64> = []
    /// Users per timing group (index as in `members`).
    private var timingSizes = [0, 0, 0]
    /// With a timing: when each user's push was due, in seconds since 1970.
    private var dueAt: [Int64: Int64] = [:]
    private var unreadable = 0
    private var eventCursor: Int64 = 0
    private var subscriptionCursor: Int64 = 0
    private var receiptCursor: Int64 = 0
    /// Users per arm and platform, counted once: members do not change after the freeze.
    private var sizes = [[Int]](repeating: [Int](repeating: 0, count: 4), count: 6)

    static let armNames = ["holdout", "a", "b", "c", "d", "rest"]
    /// The app's `user_id` when it is a number, else NULL: a row whose user id is text
    /// (nothing stops it but a foreign key the backend may not enforce) belongs to nobody,
    /// and reading it as a number would stop the refresh.
    static let userID = "CASE WHEN typeof(user_id) = 'integer' THEN user_id END"
    static let platformNames = ["ios", "android", "both", "other"]

    /// Users a push of the campaign went out to and was opened by; `withinADay`: opened
    /// within a day of its last update, as a journey counts it.
    static func openers(of campaign: Int64, withinADay: Bool, in db: Database) throws -> [Int64] {
        let inDay: SQL = withinADay ? "AND \(sql: JourneyEntries.openedInDay)" : ""
        return try Int64.fetchAll(
            db,
            SQLRequest(
                literal: """
                    SELECT DISTINCT user_id FROM panel_deliveries INDEXED BY panel_deliveries_counts
                    WHERE campaign_id = \(campaign) AND state IN (\(states: DeliveryState.wentOut))
                      AND receipt >= 2 \(inDay)
                    """))
    }

    init(campaignID: Int64, goal: CampaignGoal?, start: Date, goalDays: Int) {
        self.campaignID = campaignID
        self.goal = goal
        self.start = Int64(start.timeIntervalSince1970.rounded(.down))
        end = self.start + Int64(goalDays) * 86_400
    }

    /// The members and everything in the window so far. Each step a read of its own: the
    /// cursors are taken first, and every later read is bounded by them.
    func build(reader: PanelDatabase) async throws {
        try await reader.read { db in
            self.eventCursor = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM activity_events") ?? 0
            self.subscriptionCursor = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM subscriptions") ?? 0
            // Deliveries show the receipts the poller applied, up to its cursor, in the same snapshot.
            self.receiptCursor = try PanelReceiptReader.lastReceiptID(db)
            let member = PanelCampaignMember.Columns.self
            let members = try PanelCampaignMember.select(
                member.userID, member.arm, member.platform, member.timing, member.dueAt
            )
            .filter(member.campaignID == self.campaignID).asRequest(of: Row.self).fetchCursor(db)
            while let row = try members.next() {
                let arm = Self.armNames.firstIndex(of: row[member.arm] as String) ?? 5
                let platform = Self.platformNames.firstIndex(of: row[member.platform] as String) ?? 3
                let timing = ["usual": 1, "control": 2][(row[member.timing] as String?) ?? ""] ?? 0
                self.members[row[member.userID]] = UInt8(arm | platform << 3 | timing << 5)
                self.sizes[arm][platform] += 1
                self.timingSizes[timing] += 1
                if timing > 0, let due = (row[member.dueAt] as String?).flatMap(SQLiteTime.seconds) {
                    self.dueAt[row[member.userID]] = due
                }
            }
            self.opened.formUnion(try Self.openers(of: self.campaignID, withinADay: false, in: db))
            self.openedInDay.formUnion(try Self.openers(of: self.campaignID, withinADay: true, in: db))
        }
        guard let goal else { return }
        let from = String(SQLiteTime.string(secondsSinceEpoch: start).prefix(10))
        let to = String(SQLiteTime.string(secondsSinceEpoch: end + 86_400).prefix(10))
        try await reader.read { db in
            // Every text that could be a time in the window lies between the two days.
            let kinds =
                goal.eventKinds.map { " AND kind IN (\($0.sorted().map { "'\($0)'" }.joined(separator: ", ")))" } ?? ""
            let events = try Row.fetchCursor(
                db,
                sql: """
                    SELECT \(Self.userID), CAST(created_at AS TEXT) FROM activity_events INDEXED BY activity_events_time
                    WHERE created_at >= ? AND created_at < ? AND id <= ?\(kinds)
                    """, arguments: [from, to, self.eventCursor])
            // A window's events can be millions of rows; by name this loop took 35 % longer.
            while let row = try events.next() {
                self.event(user: row[0], time: row[1])  // app table: positional, measured faster
            }
            if goal.countsSubscriptions {
                let started = try Row.fetchCursor(
                    db,
                    sql: """
                        SELECT \(Self.userID), CAST(started_at AS TEXT) FROM subscriptions
                        WHERE id <= ? AND started_at >= ? AND started_at < ?
                        """, arguments: [self.subscriptionCursor, from, to])
                while let row = try started.next() {
                    self.event(user: row[0], time: row[1])  // app table: positional, measured faster
                }
            }
        }
    }

    /// Rows written since the last look, read by id.
    func advance(reader: PanelDatabase, now: Date, batch: Int = 20_000) async throws {
        try await reader.read { db in
            if let goal = self.goal {
                let kinds = goal.eventKinds
                // Only text is a time or a kind, as in `build`, whose range and `IN` on the
                // columns leave out a blob (or a number): a CAST here counted a blob time, or a
                // blob 'item_added', that the same row read by `build` after a restart did not.
                while true {
                    let rows = try Row.fetchAll(
                        db,
                        sql: """
                            SELECT id, \(Self.userID) AS user_id,
                                   CASE WHEN typeof(created_at) = 'text' THEN created_at END AS created_at,
                                   CASE WHEN typeof(kind) = 'text' THEN kind END AS kind
                            FROM activity_events WHERE id > ? ORDER BY id LIMIT ?
                            """, arguments: [self.eventCursor, batch])
                    for row in rows where kinds.map({ $0.contains((row["kind"] as String?) ?? "") }) ?? true {
                        self.event(user: row["user_id"], time: row["created_at"])
                    }
                    if let last = rows.last { self.eventCursor = last["id"] }
                    if rows.count < batch { break }
                }
                if goal.countsSubscriptions {
                    for row in try Row.fetchAll(
                        db,
                        sql: """
                            SELECT id, \(Self.userID) AS user_id,
                                   CASE WHEN typeof(started_at) = 'text' THEN started_at END AS started_at
                            FROM subscriptions WHERE id > ? ORDER BY id
                            """, arguments: [self.subscriptionCursor])
                    {
                        self.event(user: row["user_id"], time: row["started_at"])
                        self.subscriptionCursor = row["id"]
                    }
                }
            }
            let delivery = try db.cachedStatement(
                sql: """
                    SELECT user_id, state, updated_at, opened_at FROM panel_deliveries WHERE id = ? AND campaign_id = ?
                    """)
            // The poller stamps an open with its clock when it reads the receipt; one it has not
            // read yet is stamped now, as it will be.
            let now = SQLiteTime.string(now)
            let deliveryColumns = PanelDelivery.Columns.self
            let wentOut = Set(DeliveryState.wentOut.map(\.rawValue))
            while true {
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT id, CAST(delivery_id AS TEXT) AS delivery_id, CAST(event AS TEXT) AS event
                        FROM push_receipts WHERE id > ? ORDER BY id LIMIT ?
                        """, arguments: [self.receiptCursor, batch])
                for row in rows where (row["event"] as String?) == "opened" {
                    // Counted as the receipt poller counts: a receipt for a push that never went out is not an open.
                    guard let (campaign, id) = ReceiptPoller.parse((row["delivery_id"] as String?) ?? ""),
                        campaign == self.campaignID,
                        let found = try Row.fetchOne(delivery, arguments: [id, campaign]),
                        wentOut.contains((found[deliveryColumns.state] as String?) ?? "")
                    else { continue }
                    self.opened.insert(found[deliveryColumns.userID])
                    if let sent = (found[deliveryColumns.updatedAt] as String?).flatMap(SQLiteTime.seconds),
                        let open = SQLiteTime.seconds((found[deliveryColumns.openedAt] as String?) ?? now),
                        open <= sent + 86_400
                    {
                        self.openedInDay.insert(found[deliveryColumns.userID])
                    }
                }
                if let last = rows.last { self.receiptCursor = last["id"] }
                if rows.count < batch { break }
            }
        }
    }

    private func event(user: Int64?, time: String?) {
        guard let user, members[user] != nil else { return }
        guard let seconds = time.flatMap(Self.seconds) else {
            unreadable += 1
            return
        }
        guard seconds > start, seconds <= end else { return }
        if let earlier = converted[user], earlier <= seconds { return }
        converted[user] = seconds
    }

    static func seconds(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { TimestampBytes.seconds(UnsafeRawBufferPointer($0)) }
    }

    /// The report as of `now`, with each lift by Newcombe's method. `restHeld`: a winner
    /// test's rest has not been released yet, so they count as nobody's recipients.
    func report(now: Date, restHeld: Bool = false) -> CampaignImpact {
        var report = CampaignImpact(
            campaignID: campaignID, asOf: now, goal: goal,
            windowStart: Date(timeIntervalSince1970: TimeInterval(start)),
            windowEnd: Date(timeIntervalSince1970: TimeInterval(end)))
        var groups = [[CampaignImpact.Group]](repeating: [CampaignImpact.Group](repeating: .init(), count: 4), count: 6)
        for arm in 0..<6 { for platform in 0..<4 { groups[arm][platform].users = sizes[arm][platform] } }
        let dayCount = Int((end - start) / 86_400)
        var perDay = [[Int]](repeating: [0, 0], count: max(dayCount, 1))
        var perHour = [[Int]](repeating: [0, 0], count: max(dayCount, 1) * 24)
        // The arms that count as recipients: the rest only once they were sent something.
        let recipientArms = restHeld ? [1, 2, 3, 4] : [1, 2, 3, 4, 5]
        for (user, seconds) in converted {
            guard let code = members[user] else { continue }
            let arm = Int(code & 7)
            let platform = Int((code >> 3) & 3)
            groups[arm][platform].converted += 1
            guard arm == 0 || recipientArms.contains(arm) else { continue }
            let day = min(Int((seconds - start - 1) / 86_400), perDay.count - 1)
            perDay[day][arm == 0 ? 1 : 0] += 1
            perHour[min(Int((seconds - start - 1) / 3_600), perHour.count - 1)][arm == 0 ? 1 : 0] += 1
        }
        for user in opened {
            guard let code = members[user] else { continue }
            groups[Int(code & 7)][Int((code >> 3) & 3)].opened += 1
        }
        func total(_ arms: [Int], platform: Int? = nil) -> CampaignImpact.Group {
            var sum = CampaignImpact.Group()
            for arm in arms { for p in 0..<4 where platform == nil || platform == p { sum.add(groups[arm][p]) } }
            return sum
        }
        func lift(_ group: CampaignImpact.Group, _ against: CampaignImpact.Group) -> LiftInterval? {
            guard goal != nil else { return nil }
            return LiftInterval(
                converted: group.converted, of: group.users, against: against.converted, of: against.users)
        }
        report.holdout = total([0])
        report.restHeld = restHeld
        report.recipients = total(recipientArms)
        report.lift = lift(report.recipients, report.holdout)
        report.variants = (1...4).compactMap { arm in
            let group = total([arm])
            guard group.users > 0, let variant = MessageVariant(rawValue: Self.armNames[arm]) else { return nil }
            return .init(variant: variant, group: group, lift: lift(group, report.holdout))
        }
        let rest = total([5])
        report.rest = rest.users > 0 ? rest : nil
        report.platforms = (0..<4).compactMap { platform in
            let recipients = total(recipientArms, platform: platform)
            let holdout = total([0], platform: platform)
            guard recipients.users + holdout.users > 0 else { return nil }
            return .init(
                platform: Self.platformNames[platform], recipients: recipients, holdout: holdout,
                lift: lift(recipients, holdout))
        }
        report.days = perDay.enumerated().map {
            .init(index: $0.offset, recipients: $0.element[0], holdout: $0.element[1])
        }
        report.hours = perHour.enumerated().map {
            .init(index: $0.offset, recipients: $0.element[0], holdout: $0.element[1])
        }
        report.unreadableTimes = unreadable
        if timingSizes[1] + timingSizes[2] > 0 { report.timing = timingComparison(now: now) }
        return report
    }

    /// The usual-hour group against the control, among recipients (the holdout has no timing).
    private func timingComparison(now: Date) -> TimingComparison {
        var groups = [TimingComparison.Group(), TimingComparison.Group(), TimingComparison.Group()]
        for timing in 1...2 { groups[timing].users = timingSizes[timing] }
        // Goals are judged once the window has closed: before, the group sent later (the usual
        // hour) has had less time to reach it. Without a goal, never.
        let windowClosed = Int64(now.timeIntervalSince1970.rounded(.down)) > end
        if goal != nil, windowClosed { for timing in 1...2 { groups[timing].judged = timingSizes[timing] } }
        let dayOver = Int64(now.timeIntervalSince1970.rounded(.down)) - 86_400
        var judged: Set<Int64> = []
        for (user, due) in dueAt where due <= dayOver {
            guard let code = members[user] else { continue }
            groups[Int(code >> 5)].openJudged += 1
            judged.insert(user)
        }
        for user in converted.keys where goal != nil && windowClosed {
            guard let code = members[user] else { continue }
            groups[Int(code >> 5)].converted += 1
        }
        for user in openedInDay where judged.contains(user) {
            guard let code = members[user] else { continue }
            groups[Int(code >> 5)].openedInDay += 1
        }
        return TimingComparison(usual: groups[1], control: groups[2])
    }
}
