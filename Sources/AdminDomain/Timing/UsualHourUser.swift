import GRDB

/// What the usual hour needs of a user from the app's tables: their timezone and locale as
/// stored, and the platform of the device they were last seen on ('' with none).
struct UsualHourUser: Sendable {
    let id: Int64
    let timezone: String?
    let locale: String
    let platform: String

    private static let columns = """
        SELECT id, CAST(timezone AS TEXT) AS timezone, COALESCE(CAST(locale AS TEXT), '') AS locale,
               COALESCE(\(lastSeenPlatform(of: "u.id")), '') AS platform
        FROM users u
        """

    /// SQL: the platform of the device `user` (an SQL expression) was last seen on; NULL with none.
    static func lastSeenPlatform(of user: String) -> String {
        "(SELECT CAST(platform AS TEXT) FROM devices WHERE user_id = \(user) ORDER BY last_seen_at DESC, id DESC LIMIT 1)"
    }

    static func fetch(idsAfter after: Int64, upTo: Int64, in db: Database) throws -> [UsualHourUser] {
        try Row.fetchAll(db, sql: columns + " WHERE id > ? AND id <= ? ORDER BY id", arguments: [after, upTo]).map(Self.init)
    }

    static func fetch(ids: [Int64], in db: Database) throws -> [Int64: UsualHourUser] {
        var found: [Int64: UsualHourUser] = [:]
        let statement = try db.cachedStatement(sql: columns + " WHERE id = ?")
        for id in ids {
            if let row = try Row.fetchOne(statement, arguments: [id]) { found[id] = UsualHourUser(row) }
        }
        return found
    }

    init(_ row: Row) {
        id = row["id"]
        timezone = row["timezone"]
        locale = row["locale"]
        platform = row["platform"]
    }
}
