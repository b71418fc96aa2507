import Foundation
import GRDB

/// `panel_usual_hours`: one user's activity days and what they make, kept by
/// `UsualHourRefresh`. `hour` is their own best hour from the days in the window, whatever
/// their number; a send uses it only with `activeDays >= UsualHour.ownDays`.
public struct PanelUsualHour: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "panel_usual_hours"

    public enum Columns {
        static let userID = Column(CodingKeys.userID)
        static let days = Column(CodingKeys.days)
        static let hour = Column(CodingKeys.hour)
        static let activeDays = Column(CodingKeys.activeDays)
        static let hourDays = Column(CodingKeys.hourDays)
        static let platform = Column(CodingKeys.platform)
        static let locale = Column(CodingKeys.locale)
        static let zone = Column(CodingKeys.zone)
        static let recheckAt = Column(CodingKeys.recheckAt)
    }

    public var userID: Int64
    public var days: Data
    public var hour: Int
    public var activeDays: Int
    /// Days in the window with activity at `hour`.
    public var hourDays: Int
    /// The platform of the user's most recently seen device; '' with none.
    public var platform: String
    public var locale: String
    /// The timezone the days were counted in (the user's, or the default for a name that is not one).
    public var zone: String
    /// Seconds since 1970 when the oldest kept day leaves the window: the row is made again then.
    public var recheckAt: Int64

    /// One prepared statement: the first build writes hundreds of thousands of rows, and the
    /// record's own `save` tries an update before each insert.
    func replace(in db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO panel_usual_hours
                  (user_id, days, hour, active_days, hour_days, platform, locale, zone, recheck_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [userID, days, hour, activeDays, hourDays, platform, locale, zone, recheckAt])
    }

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case days, hour
        case activeDays = "active_days"
        case hourDays = "hour_days"
        case platform, locale, zone
        case recheckAt = "recheck_at"
    }
}
