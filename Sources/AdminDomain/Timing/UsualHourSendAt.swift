import Foundation

/// When a push goes at a recipient's usual hour: the start of the next occurrence of that
/// local hour at or after `after` (at once when it is that hour now). An hour inside quiet
/// hours moves to the nearer allowed edge: the quiet period's end, or the start of the last
/// whole hour before the period starts (ties go to the end). A time after the deadline gives
/// way to the fixed time. Arithmetic on the zone's offsets: this runs for every device of a
/// launch.
public enum UsualHourSendAt {
    public struct Plan: Sendable, Equatable {
        /// Seconds since 1970.
        public let due: Int64
        /// The local hour of `due`.
        public let hour: Int
        public let moved: TimingMove?
    }

    /// - Parameters:
    ///   - after: the launch or the entry, seconds since 1970.
    ///   - fixed: the fixed time (the control's), used when the usual hour misses the deadline;
    ///     nil: no fixed time either, so no plan.
    ///   - deadline: the latest moment the push may be due.
    public static func plan(
        after: Int64, hour: Int, zone: ZoneOffsets, quiet: (start: LocalTime, end: LocalTime)?,
        fixed: Int64?, deadline: Int64
    ) -> Plan? {
        let local = zone.local(after)
        let secondOfDay = mod(local, 86_400)
        var due = after
        if secondOfDay / 3_600 != hour {
            var target = local - secondOfDay + Int64(hour) * 3_600
            if target < local { target += 86_400 }
            due = zone.utc(fromLocal: target)
        }
        var moved: TimingMove?
        if let quiet, quiet.start != quiet.end, let edge = edge(of: due, after: after, zone: zone, quiet: quiet) {
            due = edge
            moved = .quiet
        }
        if due > deadline {
            guard let fixed, fixed <= deadline else { return nil }
            due = fixed
            moved = .deadline
        }
        return Plan(due: due, hour: Int(mod(zone.local(due), 86_400) / 3_600), moved: moved)
    }

    /// The moment `due` moves to when it falls in the quiet period, or nil when it does not.
    static func edge(of due: Int64, after: Int64, zone: ZoneOffsets, quiet: (start: LocalTime, end: LocalTime))
        -> Int64?
    {
        let local = zone.local(due)
        let minute = Int(mod(local, 86_400) / 60)
        guard isQuiet(minute, quiet) else { return nil }
        let minuteStart = local - mod(local, 60)
        let toEnd = Int64((quiet.end.minutes - minute + 1_440) % 1_440)
        let end = zone.utc(fromLocal: minuteStart + toEnd * 60)
        let sinceStart = Int64((minute - quiet.start.minutes + 1_440) % 1_440)
        let quietStarted = minuteStart - sinceStart * 60
        // The start of the hour holding the minute before quiet hours begin; never before `after`.
        let lastHour = quietStarted - 60 - mod(quietStarted - 60, 3_600)
        let before = max(zone.utc(fromLocal: lastHour), after)
        let beforeIsAllowed = before < due && !isQuiet(Int(mod(zone.local(before), 86_400) / 60), quiet)
        return beforeIsAllowed && due - before < end - due ? before : end
    }

    static func isQuiet(_ minute: Int, _ quiet: (start: LocalTime, end: LocalTime)) -> Bool {
        quiet.start.minutes < quiet.end.minutes
            ? (quiet.start.minutes..<quiet.end.minutes).contains(minute)
            : minute >= quiet.start.minutes || minute < quiet.end.minutes
    }

    static func mod(_ a: Int64, _ b: Int64) -> Int64 { ((a % b) + b) % b }
}
