import GRDB

/// One throttle count as the admin page lists it. `key` is "pair:email|address",
/// "address:…" or "account:…", as typed by whoever tried.
public struct ThrottleEntry: Codable, Sendable, Equatable, FetchableRecord, TableRecord {
    public static let databaseTableName = "panel_login_throttle"

    public let key: String
    public let failures: Int
    public let lastFailureAt: String
    public let lockedUntil: String?

    public enum Columns {
        static let key = Column(CodingKeys.key)
        static let failures = Column(CodingKeys.failures)
        static let lastFailureAt = Column(CodingKeys.lastFailureAt)
        static let lockedUntil = Column(CodingKeys.lockedUntil)
    }

    enum CodingKeys: String, CodingKey {
        case key, failures
        case lastFailureAt = "last_failure_at"
        case lockedUntil = "locked_until"
    }

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

extension ThrottleEntry {
    /// Every count still in force, locks first, newest failures next: what admins see.
    static func inForce(now: String, staleBefore: String) -> QueryInterfaceRequest<ThrottleEntry> {
        ThrottleEntry
            .filter(Columns.lockedUntil > now || (Columns.lockedUntil == nil && Columns.lastFailureAt > staleBefore))
            .order(Columns.lockedUntil == nil, Columns.lastFailureAt.desc)
            .limit(500)
    }
}
