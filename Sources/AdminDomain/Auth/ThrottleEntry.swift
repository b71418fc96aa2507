import GRDB

/// One throttle count as the admin page lists it. `key` is "pair:email|address",
/// "address:…" or "account:…", as typed by whoever tried.
public struct ThrottleEntry: Codable, Sendable, Equatable, FetchableRecord, TableRecord {
    public static let databaseTableName = "panel_login_throttle"

    public let key: String
    public let failures: Int
    public let lastFailureAt: String
    public let lockedUntil: String?

    /// The columns are the coding keys: each named once, in Swift and in SQL.
    public enum CodingKeys: String, CodingKey, ColumnExpression {
        case key, failures, lastFailureAt = "last_failure_at", lockedUntil = "locked_until"
    }

    public typealias Columns = CodingKeys

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
