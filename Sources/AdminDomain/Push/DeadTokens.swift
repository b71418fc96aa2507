import Crypto
import Foundation
import GRDB

/// Push tokens a provider called dead (FCM UNREGISTERED, APNs 410 and the like), kept by
/// their SHA-256 so that the panel never stores a token and never writes the app's devices.
public enum DeadTokens {
    public struct Entry: Sendable, Equatable {
        public let token: String
        public let deviceID: Int64
        public let provider: String
        public let reason: String

        public init(token: String, deviceID: Int64, provider: String, reason: String) {
            self.token = token
            self.deviceID = deviceID
            self.provider = provider
            self.reason = reason
        }
    }

    /// What the profile shows of a dead token.
    public struct Known: Sendable, Equatable {
        public let reason: String
        public let recordedAt: PanelTime
    }

    /// `panel_sha256(text)` in SQL, so a query can leave out devices whose token is dead.
    static let sqlHash = DatabaseFunction("panel_sha256", argumentCount: 1, pure: true) { values in
        String.fromDatabaseValue(values[0]).map(hash)
    }

    /// Lower-case hex of the token's SHA-256. Runs for every device a launch looks at, so
    /// no formatter: String(format:) per byte was most of a launch's time.
    public static func hash(_ token: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in SHA256.hash(data: Array(token.utf8)) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The first verdict stands: a later one for the same token changes nothing.
    static func record(_ entries: [Entry], now: Date = Date(), in db: Database) throws {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO panel_dead_tokens (token_sha256, device_id, provider, reason, recorded_at)
                VALUES (?, ?, ?, ?, ?) ON CONFLICT (token_sha256) DO NOTHING
                """)
        let at = PanelTime(now)
        for entry in entries {
            try statement.execute(arguments: [
                hash(entry.token), entry.deviceID, entry.provider, String(entry.reason.prefix(200)), at,
            ])
        }
    }

    /// Whether this token is known dead, by its hash's primary key.
    static func known(token: String, in db: Database) throws -> Known? {
        try PanelDeadToken.fetchOne(db, key: hash(token)).map {
            Known(reason: $0.reason, recordedAt: $0.recordedAt)
        }
    }
}
