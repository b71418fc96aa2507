import GRDB

/// What the usual hour needs of a user from the app's tables: their timezone and locale as
/// stored, and the platform of the device they were last seen on ('' with none).
struct UsualHourUser: Sendable {
    let id: Int64
    let timezone: String?
    let locale: String
    let platform: String

    private static let columns: SQL = """
        SELECT id, CAST(timezone AS TEXT) AS timezone, COALESCE(CAST(locale AS TEXT), '') AS locale,
               COALESCE(\(lastSeenPlatform(of: .segmentUser)), '') AS platform
        FROM users u
        """

    /// The platform of the device `user` was last seen on; NULL with none.
    static func lastSeenPlatform(of user: UserReference) -> SQL {
        "(SELECT CAST(platform AS TEXT) FROM devices WHERE user_id = \(user.sql) "
            + "ORDER BY last_seen_at DESC, id DESC LIMIT 1)"
    }

    static func fetch(idsAfter after: Int64, upTo: Int64, in db: Database) throws -> [UsualHourUser] {
        try Row.fetchAll(db, SQLRequest(literal: columns + " WHERE id > \(after) AND id <= \(upTo) ORDER BY id")).map(
            Self.init)
    }

    static func fetch(ids: [Int64], in db: Database) throws -> [Int64: UsualHourUser] {
        var found: [Int64: UsualHourUser] = [:]
        let statement = try db.cachedStatement(literal: columns + " WHERE id = ?")
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
