import Foundation
import GRDB

/// One test push to one device, from `admin-panel push test`: the device it goes to, then
/// its outcome recorded with its audit row (and the dead token, if the provider said so)
/// in one transaction.
public struct PushTestLog: Sendable {
    let database: PanelDatabase

    public init(database: PanelDatabase) {
        self.database = database
    }

    public func device(id: Int64) async throws -> PushDevice {
        guard let device = try await database.read({ db in try PushDevice.fetch(id: id, in: db) }) else {
            throw PushTestError("no device #\(id)")
        }
        guard let token = device.token, !token.isEmpty else {
            throw PushTestError("device #\(id) has no push token: the app has no permission to notify on it")
        }
        return device
    }

    /// The user with this email (any case) and their devices that have a token: where a
    /// campaign's test send goes.
    public func devices(ofUserWithEmail email: String) async throws -> (userID: Int64, devices: [PushDevice]) {
        let typed = email.trimmingCharacters(in: .whitespacesAndNewlines)
        return try await database.read { db in
            guard
                let userID = try Int64.fetchOne(
                    db, sql: "SELECT id FROM users WHERE email = ? COLLATE NOCASE", arguments: [typed])
            else {
                throw PushTestError("no user has the email \(typed)")
            }
            let ids = try Int64.fetchAll(
                db,
                sql: """
                    SELECT id FROM devices INDEXED BY devices_user
                    WHERE user_id = ? AND push_token IS NOT NULL AND push_token <> ''
                    ORDER BY id LIMIT 20
                    """, arguments: [userID])
            return (userID, try ids.compactMap { try PushDevice.fetch(id: $0, in: db) })
        }
    }

    /// What became of the push, as the provider client said it.
    public struct Result: Sendable {
        public let provider: String
        public let dryRun: Bool
        public let outcome: String
        /// Set when the provider called the token dead.
        public let deadReason: String?

        public init(provider: String, dryRun: Bool, outcome: String, deadReason: String?) {
            self.provider = provider
            self.dryRun = dryRun
            self.outcome = outcome
            self.deadReason = deadReason
        }
    }

    public func record(_ result: Result, for device: PushDevice, by actor: AuditActor, now: Date = Date()) async throws
    {
        let detail = "device #\(device.id) via \(result.provider)\(result.dryRun ? ", dry run" : ""): \(result.outcome)"
        try await database.write { db in
            try AuditLog.insert(
                actor.entry(.pushTestSent, target: "user:\(device.userID)", detail: String(detail.prefix(500))),
                now: now, in: db)
            if let reason = result.deadReason, let token = device.token {
                try DeadTokens.record(
                    [.init(token: token, deviceID: device.id, provider: result.provider, reason: reason)], now: now,
                    in: db)
            }
        }
    }
}

public struct PushTestError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
