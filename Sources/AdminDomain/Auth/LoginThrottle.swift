import Foundation
import GRDB

/// Slows and then stops password guessing, without handing an attacker a way to lock a
/// staff member out. Failures are counted under three keys:
/// - the account and client address together: an exponential delay from the third
///   failure, then a 15-minute lock at the tenth. Failures from other addresses never
///   lock this person's own sign-in;
/// - the client address across accounts: the same rule, against one address trying many
///   accounts;
/// - the account across addresses: an exponential delay capped at 30 seconds and never a
///   lock, which slows guessing spread over many addresses.
/// Unknown emails are counted like known ones, so the answers cannot tell them apart.
public struct LoginThrottle: Sendable {
    struct Rule {
        let prefix: String
        let lockAfter: Int?
        let maxDelay: TimeInterval
    }

    static let pair = Rule(prefix: "pair", lockAfter: 10, maxDelay: 64)
    static let address = Rule(prefix: "address", lockAfter: 10, maxDelay: 64)
    static let account = Rule(prefix: "account", lockAfter: nil, maxDelay: 30)
    public static let lockDuration: TimeInterval = 15 * 60

    let database: PanelDatabase

    public init(database: PanelDatabase) {
        self.database = database
    }

    /// Delay after `failures` consecutive failures: none for the first two, then 1, 2, 4… seconds.
    static func delay(afterFailures failures: Int, rule: Rule) -> TimeInterval {
        guard failures >= 3 else { return 0 }
        return min(pow(2, Double(failures - 3)), rule.maxDelay)
    }

    static func keys(email: String, address: String?) -> [(rule: Rule, key: String)] {
        let email = email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let address = address ?? "unknown"
        return [(pair, "pair:\(email)|\(address)"), (Self.address, "address:\(address)"), (account, "account:\(email)")]
    }

    /// Rows that slow nobody any more: a lock that has run out, or failures a quarter of an
    /// hour old, which start the count again.
    static func staleCondition(now: Date) -> (sql: String, arguments: StatementArguments) {
        ("locked_until <= ? OR (locked_until IS NULL AND last_failure_at <= ?)",
         [SQLiteTime.string(now), SQLiteTime.string(now.addingTimeInterval(-lockDuration))])
    }

    /// Seconds to wait before this attempt may be checked; 0 when it may go ahead.
    public func wait(email: String, address: String?, now: Date = Date()) async throws -> TimeInterval {
        let keys = Self.keys(email: email, address: address)
        let rows = try await database.read { db in
            try keys.map { entry in
                try Row.fetchOne(db, sql: "SELECT failures, last_failure_at, locked_until FROM panel_login_throttle WHERE key = ?",
                                 arguments: [entry.key])
                    .map { (failures: $0[0] as Int, last: $0[1] as String, lockedUntil: $0[2] as String?) }
            }
        }
        var wait: TimeInterval = 0
        for (entry, row) in zip(keys, rows) {
            guard let row, let last = SQLiteTime.date(row.last) else { continue }
            if let lockedUntil = row.lockedUntil.flatMap(SQLiteTime.date), lockedUntil > now {
                wait = max(wait, lockedUntil.timeIntervalSince(now))
            } else if row.lockedUntil == nil {
                let readyAt = last.addingTimeInterval(Self.delay(afterFailures: row.failures, rule: entry.rule))
                wait = max(wait, readyAt.timeIntervalSince(now))
            }
        }
        return wait.rounded(.up)
    }

    /// Counts a failure under each key; returns the keys this failure locked.
    @discardableResult
    public func recordFailure(email: String, address: String?, now: Date = Date()) async throws -> [String] {
        let keys = Self.keys(email: email, address: address)
        let stamp = SQLiteTime.string(now)
        let lockUntil = SQLiteTime.string(now.addingTimeInterval(Self.lockDuration))
        let stale = Self.staleCondition(now: now)
        return try await database.write { db in
            // Sweeping every key keeps the table small: each failure costs a password hash,
            // so at most a few thousand rows can be live.
            try db.execute(sql: "DELETE FROM panel_login_throttle WHERE \(stale.sql)", arguments: stale.arguments)
            var locked: [String] = []
            for entry in keys {
                try db.execute(
                    sql: """
                    INSERT INTO panel_login_throttle (key, failures, last_failure_at) VALUES (?, 1, ?)
                    ON CONFLICT (key) DO UPDATE SET failures = failures + 1, last_failure_at = excluded.last_failure_at
                    """,
                    arguments: [entry.key, stamp])
                if let lockAfter = entry.rule.lockAfter {
                    try db.execute(
                        sql: "UPDATE panel_login_throttle SET locked_until = ? WHERE key = ? AND failures >= ? AND locked_until IS NULL",
                        arguments: [lockUntil, entry.key, lockAfter])
                    if db.changesCount > 0 { locked.append(entry.key) }
                }
            }
            return locked
        }
    }

    /// A correct password clears the counts for this account and address.
    public func recordSuccess(email: String, address: String?) async throws {
        let keys = Self.keys(email: email, address: address).map(\.key)
        try await database.write { db in
            for key in keys { try db.execute(sql: "DELETE FROM panel_login_throttle WHERE key = ?", arguments: [key]) }
        }
    }

    /// What admins see: every count still in force, locks first.
    public func current(now: Date = Date()) async throws -> [ThrottleEntry] {
        let stamp = SQLiteTime.string(now)
        let stale = SQLiteTime.string(now.addingTimeInterval(-Self.lockDuration))
        return try await database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                SELECT key, failures, last_failure_at, locked_until FROM panel_login_throttle
                WHERE locked_until > ? OR (locked_until IS NULL AND last_failure_at > ?)
                ORDER BY locked_until IS NULL, last_failure_at DESC LIMIT 500
                """,
                arguments: [stamp, stale]
            ).map { ThrottleEntry(key: $0[0], failures: $0[1], lastFailureAt: $0[2], lockedUntil: $0[3]) }
        }
    }

    /// An admin lifts a lock or a delay early; returns whether there was one.
    @discardableResult
    public func clear(key: String) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM panel_login_throttle WHERE key = ?", arguments: [key])
            return db.changesCount > 0
        }
    }
}

/// One throttle count as the admin page lists it. `key` is "pair:email|address",
/// "address:…" or "account:…", as typed by whoever tried.
public struct ThrottleEntry: Sendable, Equatable {
    public let key: String
    public let failures: Int
    public let lastFailureAt: String
    public let lockedUntil: String?

    /// The key in words: which email, from which address.
    public var who: String {
        let (kind, rest) = (key.prefix { $0 != ":" }, key.drop { $0 != ":" }.dropFirst())
        switch kind {
        case "pair":
            let email = rest.prefix { $0 != "|" }
            return "\(email) from \(rest.drop { $0 != "|" }.dropFirst())"
        case "address": return "any account from \(rest)"
        case "account": return "\(rest) from any address"
        default: return key
        }
    }
}
