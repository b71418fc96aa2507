import Foundation
import GRDB

/// What an entry will be, read before the write that records it: the user's devices the
/// audience's rules let through now (the cap aside: it is checked when the push goes), or
/// the first rule that stops every device; the drawn arm; the push's due time. A user outside
/// the journey's conditions gets no admission: they do not enter.
public struct JourneyAdmission: Sendable, Equatable {
    public let crossing: TriggerCrossing
    public var devices: [Int64] = []
    /// Stored reason when no device can get it (an `Exclusion`'s raw value).
    public var exit: String?
    /// 'holdout' or a variant's letter.
    public var arm: String
    /// nil: no time within a day of the entry.
    public var due: String?
    /// With the journey's timing at the usual hour: 'usual' or 'control', the hour's basis,
    /// the due time's local hour and why it moved.
    public var timing: String?
    public var basis: UsualHourBasis?
    public var hour: Int?
    public var moved: TimingMove?

    /// Only the crossing: an entry with nothing to send, for tests of uniqueness and re-entry.
    public init(plain crossing: TriggerCrossing) {
        self.crossing = crossing
        arm = "a"
        due = nil
    }

    init(crossing: TriggerCrossing, devices: [Int64], exit: String?, arm: String, due: String?) {
        self.crossing = crossing
        self.devices = devices
        self.exit = exit
        self.arm = arm
        self.due = due
    }

    /// Reads every crossing's admission in the caller's read transaction, a user by their keys.
    static func read(
        _ crossings: [TriggerCrossing], plan: JourneyPlan, audience: Audience, defaultTimeZone: String, now: Int64,
        in db: Database
    ) throws -> [JourneyAdmission] {
        guard !crossings.isEmpty else { return [] }
        let date = Date(timeIntervalSince1970: TimeInterval(now))
        // Built once, `:user` bound per crossing on the cached statement.
        let query: SQL = """
            SELECT d.id AS did, (\(audience.classification(now: date, withCap: false))) AS rule,
                   u.timezone AS tz, s.daily_time, s.quiet_start, s.quiet_end,
                   (SELECT hour FROM panel_usual_hours
                    WHERE user_id = u.id AND active_days >= \(sql: String(UsualHour.ownDays))) AS own,
                   (SELECT hour FROM panel_usual_hour_peers
                    WHERE platform = \(UsualHourPeers.platformOf(.segmentUser))
                      AND locale = CAST(u.locale AS TEXT)) AS peer
            \(audience.from(plan.segment, now: date, extra: [SQLCondition("u.id = :user")])) ORDER BY d.id
            """
        let (sql, segment) = try query.build(db)
        let statement = try db.cachedStatement(sql: sql)
        let everyone = plan.timing?.controlPercent == nil ? nil : try UsualHourPeers.everyoneHour(in: db)
        let fallback = TimeZone(identifier: defaultTimeZone) ?? TimeZone(secondsFromGMT: 0)!
        let order = Exclusion.allCases.map(\.rawValue)
        var admissions: [JourneyAdmission] = []
        for crossing in crossings {
            let rows = try Row.fetchAll(statement, arguments: segment &+ ["user": crossing.userID])
            guard let first = rows.first else { continue }
            let reachable = rows.filter { $0["rule"] == "reachable" }.compactMap { $0["did"] as Int64? }
            let reasons = rows.compactMap { $0["rule"] as String? }.filter { $0 != "reachable" }
            // A device that passed every rule but the global control group's makes that the
            // reason: the user is out because they are a member, whatever their other devices say.
            let control = Exclusion.globalControl.rawValue
            let exit =
                reachable.isEmpty
                ? (reasons.contains(control)
                    ? control
                    : reasons.min { (order.firstIndex(of: $0) ?? 99) < (order.firstIndex(of: $1) ?? 99) }
                        ?? "no_device")
                : nil
            let zone = String.fromDatabaseValue(first["tz"]).flatMap(UserCalendar.zone(named:)) ?? fallback
            let dailyTime = String.fromDatabaseValue(first["daily_time"]).flatMap(LocalTime.init)
            let quiet = QuietHours(start: first["quiet_start"], end: first["quiet_end"])
            let fixed = plan.rules.sendAt.due(entered: date, zone: zone, dailyTime: dailyTime, quiet: quiet)
            var admission = JourneyAdmission(
                crossing: crossing, devices: reachable, exit: exit, arm: plan.arm(for: crossing).stored,
                due: fixed.map(SQLiteTime.string))
            if plan.timing?.controlPercent != nil, exit == nil, admission.arm != CampaignDraw.Arm.holdout.stored {
                admission.time(
                    plan: plan, now: now, fixed: fixed, quiet: quiet, zone: zone, own: first["own"],
                    peer: first["peer"], everyone: everyone)
            }
            admissions.append(admission)
        }
        return admissions
    }

    /// The usual hour's plan for this entry, or the control's fixed time. The deadline is a
    /// day after the entry, and for a lapsing subscription its period's end (the occurrence).
    mutating func time(
        plan: JourneyPlan, now: Int64, fixed: Date?, quiet: QuietHours, zone: TimeZone, own: Int?, peer: Int?,
        everyone: Int?
    ) {
        let offsets = ZoneOffsets.of(zone)
        let fixedSeconds = fixed.map { Int64($0.timeIntervalSince1970.rounded(.down)) }
        let resolved = UsualHourBasis.resolve(own: own, peer: { peer }, everyone: everyone)
        basis = resolved.basis
        if plan.isTimingControl(crossing) {
            timing = "control"
        } else {
            timing = "usual"
            // Five minutes inside the day: the claim expires an entry a day old, and a push due
            // on the dot would be claimed just after.
            var deadline = now + Int64(JourneySendAt.horizon) - 300
            if case .subscriptionEnding = plan.rules.trigger, let end = SQLiteTime.seconds(crossing.occurrence) {
                deadline = min(deadline, end)
            }
            if let hour = resolved.hour {
                let planned = UsualHourSendAt.plan(
                    after: now, hour: hour, zone: offsets, quiet: quiet.quietPeriod, fixed: fixedSeconds,
                    deadline: deadline)
                due = planned.map { SQLiteTime.string(secondsSinceEpoch: $0.due) }
                moved = planned?.moved
            }
        }
        if let due, let seconds = SQLiteTime.seconds(due) {
            hour = Int(UsualHourSendAt.mod(offsets.local(seconds), 86_400) / 3_600)
        }
    }
}
