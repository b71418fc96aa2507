import Foundation
import GRDB

/// Deletes what has run out from the panel's own tables: sessions past their absolute or
/// idle limit, sign-in challenges past their five minutes, and throttle counts that no
/// longer slow anyone. Each batch is its own short write transaction, so the backend never
/// waits long for the shared write lock however much has piled up.
public struct ExpiredRowSweeper: Sendable {
    public struct Report: Sendable, Equatable {
        public var sessions = 0
        public var challenges = 0
        public var throttleRows = 0
        public init() {}
    }

    let database: PanelDatabase
    let sessionPolicy: SessionPolicy
    static let batchSize = 500

    public init(database: PanelDatabase, sessionPolicy: SessionPolicy) {
        self.database = database
        self.sessionPolicy = sessionPolicy
    }

    public func sweep(now: Date = Date()) async throws -> Report {
        let stamp = SQLiteTime.string(now)
        var report = Report()
        report.sessions = try await deleteInBatches(
            from: "panel_sessions", where: "expires_at <= ? OR last_seen_at <= ?",
            arguments: [stamp, SQLiteTime.string(sessionPolicy.idleCutoff(now: now))])
        report.challenges = try await deleteInBatches(from: "panel_login_challenges", where: "expires_at <= ?", arguments: [stamp])
        let stale = LoginThrottle.staleCondition(now: now)
        report.throttleRows = try await deleteInBatches(from: "panel_login_throttle", where: stale.sql, arguments: stale.arguments)
        return report
    }

    private func deleteInBatches(from table: String, where condition: String, arguments: StatementArguments) async throws -> Int {
        var total = 0
        while true {
            let deleted = try await database.write { db in
                try db.execute(
                    sql: "DELETE FROM \(table) WHERE rowid IN (SELECT rowid FROM \(table) WHERE \(condition) LIMIT \(Self.batchSize))",
                    arguments: arguments)
                return db.changesCount
            }
            total += deleted
            if deleted < Self.batchSize { return total }
        }
    }
}
