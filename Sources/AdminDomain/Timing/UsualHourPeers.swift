import GRDB

/// The hours of users like someone: per platform and locale, the most common own hour among
/// users who have one (at least `minimumUsers` of them), and everyone's (platform and locale
/// '*'). Counted from the index on (platform, locale, hour) of users with their own hour.
public enum UsualHourPeers {
    public static let minimumUsers = 20
    public static let everyone = "*"

    /// Makes `panel_usual_hour_peers` again; returns the groups written (everyone's included).
    static func rebuild(in database: PanelDatabase) async throws -> Int {
        let rows = try await database.readAtLowPriority { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT platform, locale, hour, COUNT(*) AS users
                    FROM panel_usual_hours INDEXED BY panel_usual_hours_peers
                    WHERE active_days >= \(UsualHour.ownDays)
                    GROUP BY platform, locale, hour
                    """
            ).map {
                (
                    platform: $0["platform"] as String, locale: $0["locale"] as String, hour: $0["hour"] as Int,
                    users: $0["users"] as Int
                )
            }
        }
        var groups: [[String]: [Int]] = [:]
        var all = [Int](repeating: 0, count: 24)
        for row in rows where (0..<24).contains(row.hour) {
            groups[[row.platform, row.locale], default: [Int](repeating: 0, count: 24)][row.hour] += row.users
            all[row.hour] += row.users
        }
        var picked: [(platform: String, locale: String, hour: Int, users: Int)] = []
        for (key, counts) in groups where key[0] != everyone {
            let users = counts.reduce(0, +)
            if users >= minimumUsers, let hour = UsualHour.pick(counts: counts) {
                picked.append((key[0], key[1], hour, users))
            }
        }
        if let hour = UsualHour.pick(counts: all) { picked.append((everyone, everyone, hour, all.reduce(0, +))) }
        let written = picked
        try await database.write { db in
            try db.execute(sql: "DELETE FROM panel_usual_hour_peers")
            let insert = try db.cachedStatement(
                sql: "INSERT INTO panel_usual_hour_peers (platform, locale, hour, users) VALUES (?, ?, ?, ?)")
            for group in written {
                try insert.execute(arguments: [group.platform, group.locale, group.hour, group.users])
            }
        }
        return written.count
    }

    /// SQL for a user's platform as their peers are grouped: the one their row keeps, else
    /// that of the device they were last seen on. One per user, whichever device a row is for,
    /// so that a user's devices all go at one time.
    static func platformOf(_ user: UserReference) -> SQL {
        """
        COALESCE((SELECT NULLIF(platform, '') FROM panel_usual_hours WHERE user_id = \(user.sql)),
                 \(UsualHourUser.lastSeenPlatform(of: user)))
        """
    }

    /// Everyone's hour, or nil when no user has one of their own.
    public static func everyoneHour(in db: Database) throws -> Int? {
        try Int.fetchOne(
            db, sql: "SELECT hour FROM panel_usual_hour_peers WHERE platform = ? AND locale = ?",
            arguments: [everyone, everyone])
    }
}
