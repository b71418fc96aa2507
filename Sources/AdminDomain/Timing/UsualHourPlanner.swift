import Foundation
import GRDB

/// The freeze's usual-hour half, in the reader, a chunk of users at a time. Each user's own
/// row is read once per chunk by a range of the primary key, the peers' hours once per launch,
/// and the plan is made here: per device, only the fixed time and the draws come from SQL. A
/// first version did it all in the reader's SQL and paid for each lookup several times a
/// device (8 s more CPU at 418,000 deliveries).
struct UsualHourPlanner: Sendable {
    struct Own: Sendable {
        let hour: Int
        let activeDays: Int
        let platform: String
    }

    let campaign: Int64
    let controlPercent: Int
    let after: Int64
    let deadline: Int64
    let defaultZone: TimeZone
    /// Hours of platform + "\u{0}" + locale.
    let peers: [String: Int]
    let everyone: Int?

    init(campaign: Int64, controlPercent: Int, after: Int64, defaultTimeZone: String, in db: Database) throws {
        self.campaign = campaign
        self.controlPercent = controlPercent
        self.after = after
        deadline = after + 86_400
        defaultZone = TimeZone(identifier: defaultTimeZone) ?? TimeZone(secondsFromGMT: 0)!
        var peers: [String: Int] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT platform, locale, hour FROM panel_usual_hour_peers") {
            peers[(row["platform"] as String) + "\u{0}" + (row["locale"] as String)] = row["hour"]
        }
        self.peers = peers
        everyone = peers[UsualHourPeers.everyone + "\u{0}" + UsualHourPeers.everyone]
    }

    /// The chunk's rows (did, uid, platform, due, arm, tz, qs, qe, locale) as the JSON array
    /// the writer reads: [device, user, platform, due, arm, timing, basis, local hour, moved].
    func plan(_ rows: [Row], after: Int64, upTo: Int64, in db: Database) throws -> String {
        var own: [Int64: Own] = [:]
        for row in try Row.fetchAll(
            db,
            sql: """
                SELECT user_id, hour, active_days, platform FROM panel_usual_hours WHERE user_id > ? AND user_id <= ?
                """, arguments: [after, upTo])
        {
            own[row["user_id"]] = Own(hour: row["hour"], activeDays: row["active_days"], platform: row["platform"])
        }
        let lastSeen = try db.cachedStatement(literal: "SELECT \(UsualHourUser.lastSeenPlatform(of: .parameter))")
        // One plan per user, whichever device comes first: their devices all go at one time.
        var planned: [Int64: (due: String, timing: String, basis: UsualHourBasis, hour: Int, moved: TimingMove?)] = [:]
        var json = "["
        json.reserveCapacity(rows.count * 96)
        var first = true
        for row in rows {
            let user: Int64 = row["uid"]
            let arm: String = row["arm"]
            let fixedText: String? = row["due"]
            var entry = planned[user]
            if entry == nil, let fixedText, arm != CampaignDraw.Arm.holdout.stored {
                entry = try plan(user: user, row: row, fixed: fixedText, own: own[user], lastSeen: lastSeen)
                planned[user] = entry
            }
            // Not `json.count`: counting a String's characters walks all of it.
            if !first { json += "," }
            first = false
            json += "[\(row["did"] as Int64),\(user),\(Self.quoted(row["platform"] as String?)),"
            json += "\(Self.quoted(entry?.due ?? fixedText)),"
            json += "\(Self.quoted(arm)),\(Self.quoted(entry?.timing)),\(Self.quoted(entry?.basis.rawValue)),"
            json += "\(entry.map { String($0.hour) } ?? "null"),\(Self.quoted(entry?.moved?.rawValue))]"
        }
        return json + "]"
    }

    private func plan(user: Int64, row: Row, fixed fixedText: String, own: Own?, lastSeen: Statement) throws
        -> (due: String, timing: String, basis: UsualHourBasis, hour: Int, moved: TimingMove?)
    {
        let zone = ZoneOffsets.named(row["tz"], fallback: defaultZone).offsets
        let fixed = SQLiteTime.seconds(fixedText) ?? after
        func localHour(_ seconds: Int64) -> Int { Int(UsualHourSendAt.mod(zone.local(seconds), 86_400) / 3_600) }
        if TimingDraw.isControl(campaign: campaign, user: user, percent: controlPercent) {
            return (fixedText, "control", .none, localHour(fixed), nil)
        }
        let (basis, hour) = try UsualHourBasis.resolve(
            own: own.flatMap { $0.activeDays >= UsualHour.ownDays ? $0.hour : nil },
            peer: {
                var platform = own?.platform ?? ""
                if platform.isEmpty { platform = try String.fetchOne(lastSeen, arguments: [user]) ?? "" }
                return peers[platform + "\u{0}" + ((row["locale"] as String?) ?? "")]
            }, everyone: everyone)
        guard let hour,
            let plan = UsualHourSendAt.plan(
                after: after, hour: hour, zone: zone, quiet: QuietHours(start: row["qs"], end: row["qe"]).quietPeriod,
                fixed: fixed, deadline: deadline)
        else { return (fixedText, "usual", basis, localHour(fixed), nil) }
        return (SQLiteTime.string(secondsSinceEpoch: plan.due), "usual", basis, plan.hour, plan.moved)
    }

    /// A JSON string, or null.
    static func quoted(_ text: String?) -> String {
        guard let text else { return "null" }
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
