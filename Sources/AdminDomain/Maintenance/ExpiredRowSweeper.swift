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
        let stamp = PanelTime(now)
        var report = Report()
        report.sessions = try await deleteInBatches(
            from: .sessions,
            where: "expires_at <= \(stamp) OR last_seen_at <= \(PanelTime(sessionPolicy.idleCutoff(now: now)))")
        report.challenges = try await deleteInBatches(from: .challenges, where: "expires_at <= \(stamp)")
        report.throttleRows = try await deleteInBatches(from: .throttle, where: LoginThrottle.staleCondition(now: now))
        return report
    }

    /// The tables swept: their names are ours, never text from elsewhere.
    private enum Table: String {
        case sessions = "panel_sessions"
        case challenges = "panel_login_challenges"
        case throttle = "panel_login_throttle"
    }

    private func deleteInBatches(from table: Table, where condition: SQL) async throws -> Int {
        var total = 0
        while true {
            let deleted = try await database.write { db in
                try db.execute(
                    literal: """
                        DELETE FROM \(sql: table.rawValue)
                        WHERE rowid IN (SELECT rowid FROM \(sql: table.rawValue)
                                        WHERE \(condition) LIMIT \(sql: String(Self.batchSize)))
                        """)
                return db.changesCount
            }
            total += deleted
            if deleted < Self.batchSize { return total }
        }
    }
}
