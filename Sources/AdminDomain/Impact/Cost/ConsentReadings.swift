import Foundation
import GRDB

/// Reads consent again 72 hours after each push went out, and for the holdout's and the
/// global control's members 72 hours after the campaign's start (or their journey entry),
/// and keeps the running counts of who turned what off (`panel_consent_costs`). The rows to
/// read are those the partial indexes still hold, oldest first, so a panel that was down
/// reads them when it is back: late, never lost, never twice (each write re-checks that its
/// rows are still unread, and a batch another process read meanwhile is left to it). Its
/// reads run at the lowest priority: nobody waits for these figures.
public struct ConsentReadings: Sendable {
    /// How long after a push (or the start) consent is read again.
    public static let window: TimeInterval = 72 * 3_600

    let database: PanelDatabase
    let batch: Int
    /// `window`, but for the demo's few minutes.
    let after: TimeInterval

    public init(database: PanelDatabase, batch: Int = 2_000, after: TimeInterval = ConsentReadings.window) {
        self.database = database
        self.batch = max(1, batch)
        self.after = max(1, after)
    }

    public struct Figures: Sendable, Equatable {
        public var deliveriesRead = 0
        public var membersRead = 0
    }

    /// Reads everything due at `now`, a batch per read and write transaction.
    @discardableResult
    public func run(now: Date = Date()) async throws -> Figures {
        let cutoff = PanelTime(now.addingTimeInterval(-after))
        var figures = Figures()
        while true {
            let read = try await deliveries(dueBy: cutoff)
            figures.deliveriesRead += read
            if read < batch { break }
        }
        while true {
            let read = try await members(dueBy: cutoff)
            figures.membersRead += read
            if read < batch { break }
        }
        return figures
    }

    private struct Due: Sendable {
        let id, campaign, user: Int64
        let seen: Int
        let wentOut: Bool
    }

    /// One batch of the pushes: each (campaign, user) pair is counted once, at its first push
    /// read, and by the user's consent now (`ConsentBits.readingSQL`).
    private func deliveries(dueBy cutoff: PanelTime) async throws -> Int {
        let batch = self.batch
        let (due, counted, readings) = try await database.readAtLowPriority { db -> ([Due], Set<Pair>, [Int64: Int]) in
            let due = try Row.fetchAll(
                db,
                SQLRequest(
                    literal: """
                        SELECT id, campaign_id, user_id, consent_seen, state IN (\(states: DeliveryState.wentOut)) AS out
                        FROM panel_deliveries INDEXED BY panel_deliveries_consent_due
                        WHERE consent_sent_at IS NOT NULL AND consent_after IS NULL AND consent_sent_at <= \(cutoff)
                        ORDER BY consent_sent_at LIMIT \(batch)
                        """)
            ).map {
                Due(
                    id: $0["id"], campaign: $0["campaign_id"], user: $0["user_id"], seen: $0["consent_seen"] ?? 0,
                    wentOut: $0["out"])
            }
            let users = Set(due.map(\.user)).sorted()
            var counted = Set<Pair>()
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT user_id, campaign_id FROM panel_deliveries INDEXED BY panel_deliveries_user
                    WHERE user_id IN (SELECT value FROM json_each(?)) AND consent_after >= \(ConsentBits.accountGone)
                    """, arguments: [Self.json(users)])
            {
                counted.insert(Pair(campaign: row["campaign_id"], user: row["user_id"]))
            }
            return (due, counted, try Self.readings(of: users, in: db))
        }
        guard !due.isEmpty else { return 0 }
        var tally = CostTally()
        var after: [Int: [Int64]] = [:]
        var counting = counted
        for row in due {
            guard row.wentOut else {
                after[ConsentBits.notARecipient, default: []].append(row.id)
                continue
            }
            let bits = readings[row.user] ?? ConsentBits.accountGone
            after[bits, default: []].append(row.id)
            if counting.insert(Pair(campaign: row.campaign, user: row.user)).inserted {
                tally.add(campaign: row.campaign, group: "recipients", seen: row.seen, after: bits)
            }
        }
        let expected = due.count
        let (byValue, counts) = (after, tally)
        try await database.write { db in
            var changed = 0
            for (bits, ids) in byValue {
                try db.execute(
                    sql: """
                        UPDATE panel_deliveries SET consent_after = ?
                        WHERE id IN (SELECT value FROM json_each(?)) AND consent_after IS NULL
                        """, arguments: [bits, Self.json(ids)])
                changed += db.changesCount
            }
            // Another process read some of them first: its counts stand, this batch's go.
            guard changed == expected else { throw ConsentReadRace() }
            try counts.write(in: db)
        }
        return due.count
    }

    /// One batch of the holdouts' and the global control's members.
    private func members(dueBy cutoff: PanelTime) async throws -> Int {
        let batch = self.batch
        let (due, readings) = try await database.readAtLowPriority { db -> ([Member], [Int64: Int]) in
            let due = try Row.fetchAll(
                db,
                sql: """
                    SELECT campaign_id, user_id, grp, seen FROM panel_consent_readings INDEXED BY panel_consent_readings_due
                    WHERE after IS NULL AND start_at <= ? ORDER BY start_at LIMIT ?
                    """, arguments: [cutoff, batch]
            ).map { Member(campaign: $0["campaign_id"], user: $0["user_id"], group: $0["grp"], seen: $0["seen"]) }
            return (due, try Self.readings(of: Set(due.map(\.user)).sorted(), in: db))
        }
        guard !due.isEmpty else { return 0 }
        var tally = CostTally()
        let rows = due.map { member -> (Int64, Int64, String, Int) in
            let bits = readings[member.user] ?? ConsentBits.accountGone
            tally.add(campaign: member.campaign, group: member.group, seen: member.seen, after: bits)
            return (member.campaign, member.user, member.group, bits)
        }
        let counts = tally
        try await database.write { db in
            let update = try db.cachedStatement(
                sql: """
                    UPDATE panel_consent_readings SET after = ?
                    WHERE campaign_id = ? AND user_id = ? AND grp = ? AND after IS NULL
                    """)
            for (campaign, user, group, bits) in rows {
                try update.execute(arguments: [bits, campaign, user, group])
                guard db.changesCount == 1 else { throw ConsentReadRace() }
            }
            try counts.write(in: db)
        }
        return due.count
    }

    /// The users' consent now, by id; a user with no row is gone.
    static func readings(of users: [Int64], in db: Database) throws -> [Int64: Int] {
        guard !users.isEmpty else { return [:] }
        var readings: [Int64: Int] = [:]
        for row in try Row.fetchAll(db, sql: ConsentBits.readingSQL, arguments: ["ids": json(users)]) {
            readings[row["uid"]] = row["bits"]
        }
        return readings
    }

    static func json(_ ids: [Int64]) -> String { "[" + ids.map(String.init).joined(separator: ",") + "]" }

    private struct Member: Sendable {
        let campaign, user: Int64
        let group: String
        let seen: Int
    }

    private struct Pair: Hashable, Sendable {
        let campaign, user: Int64
    }
}

/// Another process read a batch first; this one's transaction rolled back, and the next run
/// reads what is left.
struct ConsentReadRace: Error, CustomStringConvertible {
    var description: String { "another panel process read these consents first; nothing was counted twice" }
}

/// A batch's additions to `panel_consent_costs`, per campaign and group.
struct CostTally: Sendable {
    private var counts: [Key: Counts] = [:]

    private struct Key: Hashable {
        let campaign: Int64
        let group: String
    }

    private struct Counts {
        var users = 0, marketingOff = 0, pushOff = 0, permissionOff = 0, gone = 0
    }

    mutating func add(campaign: Int64, group: String, seen: Int, after: Int) {
        let turned = ConsentBits.turnedOff(seen: seen, after: after)
        var counted = counts[Key(campaign: campaign, group: group), default: Counts()]
        counted.users += 1
        if turned.marketing { counted.marketingOff += 1 }
        if turned.push { counted.pushOff += 1 }
        if turned.permission { counted.permissionOff += 1 }
        if turned.gone { counted.gone += 1 }
        counts[Key(campaign: campaign, group: group)] = counted
    }

    func write(in db: Database) throws {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO panel_consent_costs (campaign_id, grp, users, marketing_off, push_off, permission_off, gone)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (campaign_id, grp) DO UPDATE SET
                  users = users + excluded.users, marketing_off = marketing_off + excluded.marketing_off,
                  push_off = push_off + excluded.push_off, permission_off = permission_off + excluded.permission_off,
                  gone = gone + excluded.gone
                """)
        for (key, counted) in counts {
            try statement.execute(arguments: [
                key.campaign, key.group, counted.users, counted.marketingOff, counted.pushOff, counted.permissionOff,
                counted.gone,
            ])
        }
    }
}
