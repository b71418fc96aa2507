import Foundation
import GRDB

/// The step between a correct password and a correct second factor. Its token lives in a
/// short-lived cookie and grants nothing but the right to type a code, a few times.
public struct LoginChallengeStore: Sendable {
    let database: PanelDatabase
    public static let lifetime: TimeInterval = 5 * 60
    public static let maxFailures = 5

    public init(database: PanelDatabase) {
        self.database = database
    }

    public func create(adminID: Int64, now: Date = Date()) async throws -> String {
        let token = SecureToken.random()
        let challenge = PanelLoginChallenge(
            tokenHash: SecureToken.sha256Hex(token), adminID: adminID,
            expiresAt: PanelTime(now.addingTimeInterval(Self.lifetime)))
        try await database.write { db in
            _ = try PanelLoginChallenge.filter(PanelLoginChallenge.Columns.expiresAt <= PanelTime(now)).deleteAll(db)
            try challenge.insert(db)
        }
        return token
    }

    /// The account waiting on this challenge, if it is live.
    public func adminID(forToken token: String, now: Date = Date()) async throws -> Int64? {
        guard SecureToken.isWellFormed(token) else { return nil }
        return try await database.read { db in
            try PanelLoginChallenge.filter(key: SecureToken.sha256Hex(token))
                .filter(
                    PanelLoginChallenge.Columns.expiresAt > PanelTime(now)
                        && PanelLoginChallenge.Columns.failures < Self.maxFailures
                )
                .fetchOne(db)?.adminID
        }
    }

    /// Counts a wrong code; returns the tries left (0: the challenge is spent).
    public func recordFailure(token: String) async throws -> Int {
        let tokenHash = SecureToken.sha256Hex(token)
        return try await database.write { db in
            try db.execute(
                sql: "UPDATE panel_login_challenges SET failures = failures + 1 WHERE token_hash = ?",
                arguments: [tokenHash])
            let failures = try PanelLoginChallenge.fetchOne(db, key: tokenHash)?.failures ?? Self.maxFailures
            if failures >= Self.maxFailures {
                try db.execute(sql: "DELETE FROM panel_login_challenges WHERE token_hash = ?", arguments: [tokenHash])
            }
            return max(0, Self.maxFailures - failures)
        }
    }

    public func delete(token: String) async throws {
        guard SecureToken.isWellFormed(token) else { return }
        try await database.write { db in
            try db.execute(
                sql: "DELETE FROM panel_login_challenges WHERE token_hash = ?",
                arguments: [SecureToken.sha256Hex(token)])
        }
    }
}
