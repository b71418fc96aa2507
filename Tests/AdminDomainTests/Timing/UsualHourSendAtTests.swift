import AdminDomain
import Foundation
import Testing

/// Issue 35: when a push at the usual hour goes, against times worked out by hand (the
/// zones' offsets on those dates are in the comments): the next start of the hour, now when
/// it is that hour, the nearer edge of quiet hours (also over midnight), a clock change on
/// the way, and a deadline that gives way to the fixed time or to nothing.
@Suite(.timeLimit(.minutes(20))) struct UsualHourSendAtTests {
    static func plan(
        after: String, hour: Int, zone: String, quiet: (String, String)? = nil, fixed: String? = nil,
        deadline: String = "2100-01-01 00:00:00"
    ) -> (due: String, hour: Int, moved: TimingMove?)? {
        let offsets = ZoneOffsets(TimeZone(identifier: zone)!)
        let quietTimes = quiet.map { (start: LocalTime($0.0)!, end: LocalTime($0.1)!) }
        guard
            let plan = UsualHourSendAt.plan(
                after: SQLiteTime.seconds(after)!, hour: hour, zone: offsets, quiet: quietTimes,
                fixed: fixed.flatMap(SQLiteTime.seconds), deadline: SQLiteTime.seconds(deadline)!)
        else { return nil }
        return (SQLiteTime.string(secondsSinceEpoch: plan.due), plan.hour, plan.moved)
    }

    @Test func theNextStartOfTheHourOrNowWhenItIsThatHour() {
        // Lisbon in November is UTC+0; New York is UTC-5; Tokyo UTC+9.
        #expect(Self.plan(after: "2026-11-18 12:00:00", hour: 20, zone: "Europe/Lisbon")?.due == "2026-11-18 20:00:00")
        #expect(
            Self.plan(after: "2026-11-18 12:00:00", hour: 7, zone: "America/New_York")?.due == "2026-11-18 12:00:00",
            "07:00 there now")
        #expect(
            Self.plan(after: "2026-11-18 12:00:00", hour: 6, zone: "America/New_York")?.due == "2026-11-19 11:00:00")
        #expect(
            Self.plan(after: "2026-11-18 12:00:00", hour: 21, zone: "Asia/Tokyo")?.due == "2026-11-18 12:00:00",
            "21:00 in Tokyo now")
        #expect(Self.plan(after: "2026-11-18 12:40:00", hour: 12, zone: "Europe/Lisbon")?.due == "2026-11-18 12:40:00")
        #expect(Self.plan(after: "2026-11-18 12:40:00", hour: 11, zone: "Europe/Lisbon")?.due == "2026-11-19 11:00:00")
    }

    @Test func aClockChangeOnTheWay() {
        // Lisbon, 24 Oct 2026 UTC+1, 25 Oct from 01:00 UTC UTC+0: 20:00 local is 19:00 UTC, then 20:00 UTC.
        #expect(Self.plan(after: "2026-10-24 20:30:00", hour: 20, zone: "Europe/Lisbon")?.due == "2026-10-25 20:00:00")
        #expect(Self.plan(after: "2026-10-24 12:00:00", hour: 20, zone: "Europe/Lisbon")?.due == "2026-10-24 19:00:00")
        // 01:00 happens twice on 25 Oct (00:00 UTC, then 01:00 UTC): the first.
        #expect(Self.plan(after: "2026-10-24 12:00:00", hour: 1, zone: "Europe/Lisbon")?.due == "2026-10-25 00:00:00")
        // New York, 8 March 2026: 02:00 does not exist (clocks go to 03:00 EDT = 07:00 UTC): the change itself.
        #expect(
            Self.plan(after: "2026-03-07 12:00:00", hour: 2, zone: "America/New_York")?.due == "2026-03-08 07:00:00")
        // 1 November 2026: 07:00 EST is 12:00 UTC (EDT the day before: 11:00 UTC).
        #expect(
            Self.plan(after: "2026-10-31 12:00:00", hour: 7, zone: "America/New_York")?.due == "2026-11-01 12:00:00")
    }

    @Test func quietHoursMoveTheHourToTheNearerEdge() {
        // 19:00-21:00, hour 20: the end (1 h) is nearer than 18:00 (2 h).
        let end = Self.plan(after: "2026-11-18 12:00:00", hour: 20, zone: "Europe/Lisbon", quiet: ("19:00", "21:00"))
        #expect(end?.due == "2026-11-18 21:00:00" && end?.hour == 21 && end?.moved == .quiet)
        // Over midnight, 22:00-07:00, hour 23: 21:00 (2 h before) is nearer than 07:00 (8 h after).
        let before = Self.plan(after: "2026-11-18 12:00:00", hour: 23, zone: "Europe/Lisbon", quiet: ("22:00", "07:00"))
        #expect(before?.due == "2026-11-18 21:00:00" && before?.moved == .quiet)
        // Hour 05: 07:00 (2 h after) is nearer than 21:00 the evening before (8 h).
        #expect(
            Self.plan(after: "2026-11-18 12:00:00", hour: 5, zone: "Europe/Lisbon", quiet: ("22:00", "07:00"))?.due
                == "2026-11-19 07:00:00")
        // A tie (19:00-22:00, hour 20: 18:00 and 22:00 both 2 h away) goes to the end.
        #expect(
            Self.plan(after: "2026-11-18 12:00:00", hour: 20, zone: "Europe/Lisbon", quiet: ("19:00", "22:00"))?.due
                == "2026-11-18 22:00:00")
        // Quiet starting at 22:30: the last whole hour before it starts at 22:00.
        #expect(
            Self.plan(after: "2026-11-18 12:00:00", hour: 23, zone: "Europe/Lisbon", quiet: ("22:30", "07:00"))?.due
                == "2026-11-18 22:00:00")
        // The earlier edge is never before the launch: launched 21:30 in 22:00-07:00, hour 23: now.
        #expect(
            Self.plan(after: "2026-11-18 21:30:00", hour: 23, zone: "Europe/Lisbon", quiet: ("22:00", "07:00"))?.due
                == "2026-11-18 21:30:00")
        // Outside quiet hours, and equal start and end (no quiet period): kept.
        let kept = Self.plan(after: "2026-11-18 12:00:00", hour: 15, zone: "Europe/Lisbon", quiet: ("22:00", "07:00"))
        #expect(kept?.due == "2026-11-18 15:00:00" && kept?.moved == nil)
        #expect(
            Self.plan(after: "2026-11-18 12:00:00", hour: 23, zone: "Europe/Lisbon", quiet: ("22:00", "22:00"))?.moved
                == nil)
    }

    @Test func aDeadlineIsNeverPassed() {
        // A subscription ending at 18:00 UTC: 20:00 is too late, the fixed time (13:00) goes.
        let fixed = Self.plan(
            after: "2026-11-18 12:00:00", hour: 20, zone: "Europe/Lisbon", fixed: "2026-11-18 13:00:00",
            deadline: "2026-11-18 18:00:00")
        #expect(fixed?.due == "2026-11-18 13:00:00" && fixed?.moved == .deadline && fixed?.hour == 13)
        // The fixed time after the deadline too: no time at all.
        #expect(
            Self.plan(
                after: "2026-11-18 12:00:00", hour: 20, zone: "Europe/Lisbon", fixed: "2026-11-18 19:00:00",
                deadline: "2026-11-18 18:00:00") == nil)
        // Exactly at the deadline: kept.
        #expect(
            Self.plan(after: "2026-11-18 12:00:00", hour: 18, zone: "Europe/Lisbon", deadline: "2026-11-18 18:00:00")?
                .due == "2026-11-18 18:00:00")
        // Quiet hours moving it past the deadline count as past it.
        #expect(
            Self.plan(
                after: "2026-11-18 12:00:00", hour: 17, zone: "Europe/Lisbon", quiet: ("16:00", "19:00"),
                fixed: "2026-11-18 12:00:00",
                deadline: "2026-11-18 18:00:00")?.moved == .deadline)
    }
}
