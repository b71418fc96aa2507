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
/// Each key is three columns (`ThrottleKey`), never text joined from what was typed.
public struct LoginThrottle: Sendable {
    struct Rule {
        let lockAfter: Int?
        let maxDelay: TimeInterval
    }

    static let pair = Rule(lockAfter: 10, maxDelay: 64)
    static let address = Rule(lockAfter: 10, maxDelay: 64)
    static let account = Rule(lockAfter: nil, maxDelay: 30)
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

    static func keys(email: String, address: String?) -> [(rule: Rule, key: ThrottleKey)] {
        let email = normalized(email)
        let address = address ?? "unknown"
        return [
            (pair, .pair(email: email, address: address)), (Self.address, .address(address)),
            (account, .account(email: email)),
        ]
    }

    /// An email as counted: the same account however it was typed.
    static func normalized(_ email: String) -> String {
        email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    /// Rows that slow nobody any more: a lock that has run out, or failures a quarter of an
    /// hour old, which start the count again.
    static func staleCondition(now: Date) -> SQL {
        "locked_until <= \(PanelTime(now)) "
            + "OR (locked_until IS NULL AND last_failure_at <= \(PanelTime(now.addingTimeInterval(-lockDuration))))"
    }

    /// Seconds to wait before this attempt may be checked; 0 when it may go ahead.
    public func wait(email: String, address: String?, now: Date = Date()) async throws -> TimeInterval {
        let keys = Self.keys(email: email, address: address)
        return try await database.read { db in try Self.wait(keys, now: now, in: db) }
    }

    /// Reserves one attempt before its password or code is checked, in one write
    /// transaction: refused while a delay or lock runs, otherwise counted as a failure at
    /// once, so every attempt already in flight raises the count the next one is judged on.
    /// A burst is cut off at the third attempt (the first delay) before it reaches the
    /// hasher, and the lock at the tenth holds even for the right password sent amid it.
    /// The caller clears the count on success (`recordSuccess`) or gives the attempt back
    /// when it was only a confirmation (`release`).
    public func reserve(email: String, address: String?, now: Date = Date()) async throws -> ThrottleDecision {
        let keys = Self.keys(email: email, address: address)
        return try await database.write { db in
            try Self.sweep(now: now, in: db)
            let wait = try Self.wait(keys, now: now, in: db)
            guard wait <= 0 else { return .wait(seconds: Int(wait)) }
            return .proceed(locks: try Self.count(keys, now: now, in: db))
        }
    }

    /// Counts a failure under each key; returns the keys this failure locked.
    @discardableResult
    public func recordFailure(email: String, address: String?, now: Date = Date()) async throws -> [ThrottleKey] {
        let keys = Self.keys(email: email, address: address)
        return try await database.write { db in
            try Self.sweep(now: now, in: db)
            return try Self.count(keys, now: now, in: db)
        }
    }

    /// A correct password clears the counts for this account and address.
    public func recordSuccess(email: String, address: String?) async throws {
        let keys = Self.keys(email: email, address: address).map(\.key)
        try await database.write { db in
            for key in keys { try ThrottleEntry.filter(key.condition).deleteAll(db) }
        }
    }

    /// Gives back a reserved attempt that turned out right without signing anyone in (a
    /// change confirmed with the password): the count it added goes, a lock it set stays.
    public func release(email: String, address: String?) async throws {
        let keys = Self.keys(email: email, address: address).map(\.key)
        try await database.write { db in
            for key in keys {
                try db.execute(
                    sql: """
                        UPDATE panel_login_throttle SET failures = failures - 1
                        WHERE kind = ? AND email = ? AND address = ? AND failures > 0 AND locked_until IS NULL
                        """, arguments: [key.kind, key.email, key.address])
            }
        }
    }

    /// Sweeping at every count keeps the table small: each count is an attempt that got
    /// past the throttle, so at most a few thousand rows can be live.
    private static func sweep(now: Date, in db: Database) throws {
        try db.execute(literal: "DELETE FROM panel_login_throttle WHERE \(staleCondition(now: now))")
    }

    private static func wait(_ keys: [(rule: Rule, key: ThrottleKey)], now: Date, in db: Database) throws
        -> TimeInterval
    {
        var wait: TimeInterval = 0
        for entry in keys {
            guard let row = try ThrottleEntry.find(entry.key, in: db) else { continue }
            let last = row.lastFailureAt.date
            if let lockedUntil = row.lockedUntil?.date {
                if lockedUntil > now { wait = max(wait, lockedUntil.timeIntervalSince(now)) }
            } else {
                let readyAt = last.addingTimeInterval(delay(afterFailures: row.failures, rule: entry.rule))
                wait = max(wait, readyAt.timeIntervalSince(now))
            }
        }
        return wait.rounded(.up)
    }

    private static func count(_ keys: [(rule: Rule, key: ThrottleKey)], now: Date, in db: Database) throws
        -> [ThrottleKey]
    {
        let stamp = PanelTime(now)
        let lockUntil = PanelTime(now.addingTimeInterval(lockDuration))
        var locked: [ThrottleKey] = []
        for entry in keys {
            let key = entry.key
            try db.execute(
                sql: """
                    INSERT INTO panel_login_throttle (kind, email, address, failures, last_failure_at)
                    VALUES (?, ?, ?, 1, ?)
                    ON CONFLICT (kind, email, address) DO UPDATE
                      SET failures = failures + 1, last_failure_at = excluded.last_failure_at
                    """,
                arguments: [key.kind, key.email, key.address, stamp])
            if let lockAfter = entry.rule.lockAfter {
                try db.execute(
                    sql: """
                        UPDATE panel_login_throttle SET locked_until = ?
                        WHERE kind = ? AND email = ? AND address = ? AND failures >= ? AND locked_until IS NULL
                        """,
                    arguments: [lockUntil, key.kind, key.email, key.address, lockAfter])
                if db.changesCount > 0 { locked.append(entry.key) }
            }
        }
        return locked
    }

    /// What admins see: every count still in force, locks first.
    public func current(now: Date = Date()) async throws -> [ThrottleEntry] {
        let stamp = PanelTime(now)
        let stale = PanelTime(now.addingTimeInterval(-Self.lockDuration))
        return try await database.read { db in
            try ThrottleEntry.inForce(now: stamp, staleBefore: stale).fetchAll(db)
        }
    }

    /// An admin lifts a lock or a delay early, with its audit row; returns whether there was one.
    @discardableResult
    public func clear(key: ThrottleKey, by actor: AuditActor, now: Date = Date()) async throws -> Bool {
        try await unlock(.key(key), by: actor, now: now).count == 1
    }

    /// Which counts an unlock lifts.
    public enum Unlock: Sendable, Equatable {
        case key(ThrottleKey)
        /// The account's counts, from every address.
        case email(String)
        /// The address's counts, for every account.
        case address(String)
        case all
    }

    /// Lifts the chosen locks and delays, each with its audit row, in one transaction: the
    /// admin page and `admin-panel admin unlock` alike. Returns the keys lifted.
    public func unlock(_ which: Unlock, by actor: AuditActor, now: Date = Date()) async throws -> [ThrottleKey] {
        typealias Columns = ThrottleEntry.Columns
        return try await database.write { db in
            let matching: SQLExpression? =
                switch which {
                case .key(let key): key.condition
                case .email(let email):
                    Columns.email == Self.normalized(email) && [ThrottleKey.Kind.pair, .account].contains(Columns.kind)
                case .address(let address):
                    Columns.address == address && [ThrottleKey.Kind.pair, .address].contains(Columns.kind)
                case .all: nil
                }
            let request = matching.map { ThrottleEntry.filter($0) } ?? ThrottleEntry.all()
            let keys = try request.order(Columns.kind, Columns.email, Columns.address).fetchAll(db).map(\.key)
            for key in keys {
                try ThrottleEntry.filter(key.condition).deleteAll(db)
                try AuditLog.insert(
                    actor.entry(.signInUnlocked, target: String(key.description.prefix(700)), detail: nil), now: now,
                    in: db)
            }
            return keys
        }
    }
}

/// Whether an attempt may be checked now.
public enum ThrottleDecision: Sendable, Equatable {
    /// Go ahead: the attempt is counted as a failure until it succeeds. `locks` are the keys
    /// that counting it locked, for the audit log if it fails.
    case proceed(locks: [ThrottleKey])
    case wait(seconds: Int)

    /// Seconds to wait; 0 when the attempt may go ahead.
    public var retryAfter: Int {
        if case .wait(let seconds) = self { seconds } else { 0 }
    }
}
