import Foundation
import GRDB
import Synchronization

public struct SessionPolicy: Sendable {
    public var idleTimeout: TimeInterval
    public var absoluteTimeout: TimeInterval

    public init(idleTimeout: TimeInterval = 30 * 60, absoluteTimeout: TimeInterval = 12 * 3600) {
        self.idleTimeout = idleTimeout
        self.absoluteTimeout = absoluteTimeout
    }

    /// A session whose stored `last_seen_at` is before this is certainly idle, for the sweeper
    /// and the sessions list. `last_seen_at` is rewritten at most every
    /// `SessionStore.touchInterval`, so the last request may have come up to that much after
    /// it: counting the interval in means no row goes while its session may still be live.
    /// Whether a session is idle at a request is `isIdle`, to the second.
    public func idleCutoff(now: Date) -> Date {
        now.addingTimeInterval(-(idleTimeout + SessionStore.touchInterval))
    }

    /// Idle since `lastSeen`, the last request's time, at `now`: the limit runs from that
    /// request to the second, never later.
    public func isIdle(lastSeen: Date, now: Date) -> Bool {
        lastSeen.addingTimeInterval(idleTimeout) <= now
    }
}

/// The time of each session's last request, to the second, in this process: `last_seen_at`
/// is written at most once a minute, so it alone would let a session live up to a minute past
/// its idle limit. Lost at a restart, when the stored time (earlier, never later) counts.
final class SessionActivity: Sendable {
    private let seen = Mutex<[String: Date]>([:])

    func lastRequest(_ tokenHash: String) -> Date? {
        seen.withLock { $0[tokenHash] }
    }

    func record(_ tokenHash: String, at now: Date, idleTimeout: TimeInterval) {
        seen.withLock { seen in
            seen[tokenHash] = max(now, seen[tokenHash] ?? now)
            // Sessions idle past their limit are forgotten once there are many.
            if seen.count > 10_000 { seen = seen.filter { $0.value.addingTimeInterval(idleTimeout) > now } }
        }
    }

    func forget(_ tokenHash: String) {
        _ = seen.withLock { $0.removeValue(forKey: tokenHash) }
    }
}

/// Sessions in `panel_sessions`. The cookie carries a 256-bit random token; the table
/// keeps only its SHA-256, so a copy of the database signs nobody in.
public struct SessionStore: Sendable {
    let database: PanelDatabase
    let policy: SessionPolicy
    /// Each session's last request in this process, to the second.
    let activity = SessionActivity()

    /// last_seen_at is rewritten at most this often, so browsing is not a write per request.
    public static let touchInterval: TimeInterval = 60

    public init(database: PanelDatabase, policy: SessionPolicy) {
        self.database = database
        self.policy = policy
    }

    /// Returns the token for the cookie.
    public func create(adminID: Int64, clientAddress: String?, userAgent: String?, now: Date = Date()) async throws
        -> String
    {
        let token = Self.newToken()
        let created = PanelTime(now)
        let expires = PanelTime(now.addingTimeInterval(policy.absoluteTimeout))
        let session = PanelSession(
            tokenHash: Self.hash(token), adminID: adminID, createdAt: created, lastSeenAt: created,
            expiresAt: expires, clientAddress: clientAddress, userAgent: userAgent.map { String($0.prefix(300)) })
        try await database.write { db in try session.insert(db) }
        return token
    }

    /// The signed-in staff member for a cookie token, or nil for an unknown, expired,
    /// idle or disabled one.
    public func identity(forToken token: String, now: Date = Date()) async throws -> StaffIdentity? {
        guard SecureToken.isWellFormed(token) else { return nil }
        let tokenHash = Self.hash(token)
        let row = try await database.read { db in try SessionAccount.request(tokenHash: tokenHash).fetchOne(db) }
        guard let row else { return nil }
        let lastSeen = row.lastSeenAt.date
        let lastRequest = max(lastSeen, activity.lastRequest(tokenHash) ?? lastSeen)
        let expires = row.expiresAt.date
        guard row.disabledAt == nil, now < expires, !policy.isIdle(lastSeen: lastRequest, now: now) else {
            try await delete(token: token)
            return nil
        }
        activity.record(tokenHash, at: now, idleTimeout: policy.idleTimeout)
        if now.timeIntervalSince(lastSeen) >= Self.touchInterval {
            _ = try await database.write { db in
                try PanelSession.filter(key: tokenHash).updateAll(
                    db, PanelSession.Columns.lastSeenAt.set(to: PanelTime(now)))
            }
        }
        return StaffIdentity(
            adminID: row.adminID, email: row.email, role: row.role, hasTwoFactor: row.hasTwoFactor,
            mustChangePassword: row.oneTimePassword)
    }

    /// Whether the session still stands for a staff member who may do `permission`: not
    /// ended, expired or idle past the limit, the account neither disabled nor moved to a role
    /// without it. A read, never counted as activity: a page left open does not keep a
    /// session alive. For streams that outlast the request that opened them.
    public func stillAllows(token: String, _ permission: Permission, now: Date = Date()) async throws -> Bool {
        guard SecureToken.isWellFormed(token) else { return false }
        let tokenHash = Self.hash(token)
        let row = try await database.read { db in try SessionAccount.request(tokenHash: tokenHash).fetchOne(db) }
        guard let row, row.disabledAt == nil else { return false }
        let seen = max(row.lastSeenAt.date, activity.lastRequest(tokenHash) ?? row.lastSeenAt.date)
        let ends = row.expiresAt.date
        return now < ends && !policy.isIdle(lastSeen: seen, now: now) && row.role.may(permission)
    }

    /// The live sessions of one account, newest first; `isCurrent` marks the one holding `currentToken`.
    public func list(adminID: Int64, currentToken: String, now: Date = Date()) async throws -> [SessionSummary] {
        let currentHash = Self.hash(currentToken)
        let idleLimit = PanelTime(policy.idleCutoff(now: now))
        let stamp = PanelTime(now)
        return try await database.read { db in
            try PanelSession.filter(PanelSession.Columns.adminID == adminID).live(now: stamp, idleCutoff: idleLimit)
                .order(PanelSession.Columns.createdAt.desc)
                .fetchAll(db)
                .map { session in
                    SessionSummary(
                        isCurrent: session.tokenHash == currentHash, createdAt: session.createdAt,
                        lastSeenAt: session.lastSeenAt,
                        clientAddress: session.clientAddress, userAgent: session.userAgent)
                }
        }
    }

    /// Swaps the session's token for a new one, keeping the session, in the caller's
    /// transaction: after a change of password or privilege, a token seen before it is worth nothing.
    static func rotate(token: String, in db: Database) throws -> String {
        let fresh = Self.newToken()
        try db.execute(
            sql: "UPDATE panel_sessions SET token_hash = ? WHERE token_hash = ?",
            arguments: [Self.hash(fresh), Self.hash(token)])
        return fresh
    }

    /// Ends every session of one account (`adminID`), or of everyone, but the one holding
    /// `keepToken` (nil keeps none), inside the caller's transaction; returns how many ended.
    static func deleteAll(adminID: Int64?, keepToken: String?, in db: Database) throws -> Int {
        let keep = keepToken.map(hash) ?? ""
        if let adminID {
            try db.execute(
                sql: "DELETE FROM panel_sessions WHERE admin_id = ? AND token_hash <> ?", arguments: [adminID, keep])
        } else {
            try db.execute(sql: "DELETE FROM panel_sessions WHERE token_hash <> ?", arguments: [keep])
        }
        return db.changesCount
    }

    public func delete(token: String) async throws {
        guard SecureToken.isWellFormed(token) else { return }
        activity.forget(Self.hash(token))
        try await database.write { db in
            try db.execute(sql: "DELETE FROM panel_sessions WHERE token_hash = ?", arguments: [Self.hash(token)])
        }
    }

    static func newToken() -> String {
        SecureToken.random()
    }

    static func hash(_ token: String) -> String {
        SecureToken.sha256Hex(token)
    }
}

/// A session as its owner sees it in the list: never the token or its hash.
public struct SessionSummary: Sendable, Equatable {
    public let isCurrent: Bool
    public let createdAt: PanelTime
    public let lastSeenAt: PanelTime
    public let clientAddress: String?
    public let userAgent: String?
}
