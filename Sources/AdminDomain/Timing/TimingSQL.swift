import Foundation
import GRDB

/// The freeze's SQL functions for sending at each user's usual hour.
enum TimingSQL {
    static let controlSalt: UInt64 = 0x7469_6D65

    /// Whether a recipient is in the timing control share: drawn per (campaign, user),
    /// independent of the holdout, test share and variant draws.
    static func isControl(campaign: Int64, user: Int64, percent: Int) -> Bool {
        CampaignDraw.draw(campaign: campaign, user: user, salt: controlSalt) < percent * 100
    }

    /// `panel_timing_control(campaign, user, percent)`.
    static let control = DatabaseFunction("panel_timing_control", argumentCount: 3, pure: true) { values in
        guard let campaign = Int64.fromDatabaseValue(values[0]), let user = Int64.fromDatabaseValue(values[1]) else { return false }
        return isControl(campaign: campaign, user: user, percent: Int.fromDatabaseValue(values[2]) ?? 0)
    }

    /// `panel_usual_plan(after, timezone, quiet_start, quiet_end, hour, default_zone, fixed, deadline)`: the plan
    /// as 'YYYY-MM-DD HH:MM:SS HH M', M one of '-' (not moved), 'q' (quiet hours), 'd' (deadline: the
    /// fixed time). With no hour: the fixed time, its local hour, '-'.
    static let plan = DatabaseFunction("panel_usual_plan", argumentCount: 8, pure: true) { values in
        guard let fixedText = String.fromDatabaseValue(values[6]), let fixed = SQLiteTime.seconds(fixedText),
              let after = String.fromDatabaseValue(values[0]).flatMap(SQLiteTime.seconds)
        else { return nil }
        let zone = offsets(values[1], defaultZone: values[5])
        let deadline = String.fromDatabaseValue(values[7]).flatMap(SQLiteTime.seconds) ?? after + 86_400
        guard let hour = Int.fromDatabaseValue(values[4]), (0..<24).contains(hour),
              let plan = UsualHourSendAt.plan(after: after, hour: hour, zone: zone, quiet: QuietHours(start: values[2], end: values[3]).quietPeriod,
                                              fixed: fixed, deadline: deadline)
        else { return encode(due: fixed, zone: zone, moved: nil) }
        return encode(due: plan.due, zone: zone, moved: plan.moved)
    }

    static func encode(due: Int64, zone: ZoneOffsets, moved: TimingMove?) -> String {
        let hour = UsualHourSendAt.mod(zone.local(due), 86_400) / 3_600
        let flag = switch moved {
        case nil: "-"
        case .quiet: "q"
        case .deadline: "d"
        }
        return SQLiteTime.string(secondsSinceEpoch: due) + (hour < 10 ? " 0" : " ") + String(hour) + " " + flag
    }

    static func offsets(_ name: DatabaseValue, defaultZone: DatabaseValue) -> ZoneOffsets {
        let fallback = ZoneOffsets.named(String.fromDatabaseValue(defaultZone) ?? "UTC", fallback: TimeZone(secondsFromGMT: 0)!).offsets
        return ZoneOffsets.named(String.fromDatabaseValue(name), fallback: fallback.zone).offsets
    }

    static let functions = [control, plan]
}
