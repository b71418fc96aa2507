import Foundation
import GRDB

/// One user's usual hour as a push would use it now, and why: for the profile.
public struct UserUsualHour: Sendable, Equatable {
    /// The hour a push at the usual hour would aim for; nil with no basis at all.
    public let hour: Int?
    public let basis: UsualHourBasis
    /// Their own days in the window: all active days, and those active at their own best hour.
    public let activeDays: Int
    public let ownHour: Int?
    public let ownHourDays: Int
    /// With `basis` peers: how many users share the hour's platform and locale.
    public let peers: Int?
    public let peerPlatform: String?
    public let peerLocale: String?
    /// The local hour a push would go at after their quiet hours, when they move it.
    public let movedTo: Int?
    /// The first build has not reached this user yet.
    public let building: Bool
    /// Their stored timezone is not one: the hours are counted in this zone instead.
    public var fallbackZone: String?
    /// The zone their kept days were counted in, when it is not the one used now (they moved,
    /// or their timezone stopped being one): those days keep its hours until they age out.
    public var countedIn: String?

    /// Read in the caller's transaction: the user's row, their peers and quiet hours.
    public static func load(user: Int64, now: Date, defaultTimeZone: String, in db: Database) throws -> UserUsualHour? {
        guard
            let person = try Row.fetchOne(
                db,
                SQLRequest(
                    literal: """
                        SELECT CAST(u.timezone AS TEXT) AS timezone, CAST(u.locale AS TEXT) AS locale,
                               s.quiet_start, s.quiet_end,
                               COALESCE(\(UsualHourUser.lastSeenPlatform(of: .segmentUser)), '') AS platform
                        FROM users u LEFT JOIN notification_settings s ON s.user_id = u.id WHERE u.id = \(user)
                        """))
        else { return nil }
        let stored = try PanelUsualHour.fetchOne(db, key: user)
        let buildAfter = try Row.fetchOne(db, sql: "SELECT build_after FROM panel_usual_hour_state WHERE id = 1")
        let building = buildAfter.map { ($0["build_after"] as Int64?).map { $0 < user } ?? false } ?? true
        let fallback = TimeZone(identifier: defaultTimeZone) ?? TimeZone(secondsFromGMT: 0)!
        let (zone, valid) = ZoneOffsets.named(person["timezone"], fallback: fallback)
        // Counted as of now from the stored days: the row may be up to a refresh old.
        let nowSeconds = Int64(now.timeIntervalSince1970.rounded(.down))
        let today = Int32((zone.local(nowSeconds) - UsualHourSendAt.mod(zone.local(nowSeconds), 86_400)) / 86_400)
        let days = stored.map { ActivityDays(blob: $0.days) } ?? ActivityDays()
        let counts = days.counts(today: today)
        let active = days.activeDays(today: today)
        let own = UsualHour.pick(counts: counts)
        let platform = stored.map(\.platform).flatMap { $0.isEmpty ? nil : $0 } ?? (person["platform"] as String? ?? "")
        let locale: String = person["locale"] ?? ""
        let peer = try Row.fetchOne(
            db, sql: "SELECT hour, users FROM panel_usual_hour_peers WHERE platform = ? AND locale = ?",
            arguments: [platform, locale])
        let everyone = try UsualHourPeers.everyoneHour(in: db)
        let (basis, hour) = UsualHourBasis.resolve(
            own: active >= UsualHour.ownDays ? own : nil, peer: { peer?["hour"] }, everyone: everyone)
        var movedTo: Int?
        if let hour, let quiet = QuietHours(start: person["quiet_start"], end: person["quiet_end"]).quietPeriod,
            let plan = UsualHourSendAt.plan(
                after: nowSeconds, hour: hour, zone: zone, quiet: quiet, fixed: nil, deadline: .max),
            plan.moved == .quiet
        {
            movedTo = plan.hour
        }
        return UserUsualHour(
            hour: hour, basis: basis, activeDays: active, ownHour: own, ownHourDays: own.map { counts[$0] } ?? 0,
            peers: basis == .peers ? peer?["users"] : nil, peerPlatform: basis == .peers ? platform : nil,
            peerLocale: basis == .peers ? locale : nil, movedTo: movedTo, building: building,
            fallbackZone: valid ? nil : defaultTimeZone,
            countedIn: stored.map(\.zone).flatMap {
                $0 == (valid ? (person["timezone"] as String?) : defaultTimeZone) ? nil : $0
            })
    }

    /// "20:00, 14 of 60 days; moved to 21:00 by quiet hours".
    public var sentence: String {
        var text: String
        switch basis {
        case .own: text = "\(Self.clock(hour)), \(ownHourDays) of \(ActivityDays.window) days"
        case .peers:
            text =
                "\(Self.clock(hour)), the usual hour of \(peers ?? 0) users on \(peerPlatform ?? "?") "
                + "with locale \(peerLocale ?? "?")"
                + " (\(activeDays) active day\(activeDays == 1 ? "" : "s") of their own in \(ActivityDays.window); "
                + "\(UsualHour.ownDays) needed)"
        case .everyone:
            text =
                "\(Self.clock(hour)), everyone's busiest hour "
                + "(\(activeDays) active day\(activeDays == 1 ? "" : "s") of their own in \(ActivityDays.window); "
                + "\(UsualHour.ownDays) needed, and too few users share their platform and locale)"
        case .none:
            text =
                "none yet: \(activeDays) active day\(activeDays == 1 ? "" : "s") of their own in "
                + "\(ActivityDays.window) (\(UsualHour.ownDays) needed), and no user has a usual hour yet to go by, "
                + "so pushes go at the fixed time"
        }
        if let movedTo { text += "; moved to \(Self.clock(movedTo)) by quiet hours" }
        if let fallbackZone { text += "; hours in \(fallbackZone), as their timezone is not one" }
        if let countedIn { text += "; the days kept so far were counted in \(countedIn)" }
        if building { text += " (the first count of activity has not reached this user yet)" }
        return text
    }

    static func clock(_ hour: Int?) -> String { hour.map { ($0 < 10 ? "0" : "") + "\($0):00" } ?? "?" }
}
