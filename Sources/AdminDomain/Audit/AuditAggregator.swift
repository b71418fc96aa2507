import Foundation
import GRDB

/// Events that anyone can cause without signing in, as fast as they like (a form posted
/// without its token, a sign-in refused by the throttle), are counted in memory and written
/// as one row per action, address and reason per interval, with the count in its detail
/// ("missing token (2000 times)"), all rows of a flush in transactions of at most 500. Two
/// thousand forged POSTs once wrote two thousand rows in 1.6 s and held the backend's writes
/// up to 185 ms; now they cost one row.
public actor AuditAggregator {
    struct Key: Hashable {
        let action: AuditAction
        let actorEmail: String?
        let address: String?
        let reason: String?
    }

    struct Tally {
        var count: Int
        let first: Date
        /// The first event's target (a path, a throttle key): the rest differ only in it.
        let target: String?
    }

    /// Distinct keys kept between flushes; past it, events from further addresses are
    /// counted under one "many addresses" row, so memory and rows stay bounded.
    static let maxKeys = 1_000
    static let rowsPerTransaction = 500
    static let overflowAddress = "many addresses"

    let database: PanelDatabase
    private var pending: [Key: Tally] = [:]
    private var order: [Key] = []

    public init(database: PanelDatabase) {
        self.database = database
    }

    public func record(
        _ action: AuditAction, actorEmail: String? = nil, address: String?, target: String? = nil, reason: String?,
        now: Date = Date()
    ) {
        var key = Key(
            action: action, actorEmail: actorEmail.map { String($0.prefix(320)) }, address: address, reason: reason)
        if pending[key] == nil, pending.count >= Self.maxKeys {
            key = Key(action: action, actorEmail: nil, address: Self.overflowAddress, reason: reason)
        }
        if pending[key] == nil {
            pending[key] = Tally(count: 0, first: now, target: target.map { String($0.prefix(200)) })
            order.append(key)
        }
        pending[key]?.count += 1
    }

    /// Writes what is pending and returns how many rows; the background flusher calls it
    /// every few seconds and once more at shutdown.
    @discardableResult
    public func flush() async throws -> Int {
        let rows = order.compactMap { key in pending[key].map { (key, $0) } }
        pending = [:]
        order = []
        for start in stride(from: 0, to: rows.count, by: Self.rowsPerTransaction) {
            let batch = rows[start..<min(start + Self.rowsPerTransaction, rows.count)]
            try await database.write { db in
                for (key, tally) in batch {
                    let detail =
                        tally.count == 1
                        ? key.reason : "\(key.reason ?? "")\(key.reason == nil ? "" : " ")(\(tally.count) times)"
                    try AuditLog.insert(
                        AuditEntry(
                            actor: nil, actorEmail: key.actorEmail, clientAddress: key.address,
                            action: key.action, target: tally.target, detail: detail),
                        now: tally.first, in: db)
                }
            }
        }
        return rows.count
    }
}
