import Foundation
import GRDB
import Testing

@testable import AdminDomain

@Suite("Send times: local hours and quiet hours at their edges", .timeLimit(.minutes(20)))
struct SendTimeTests {
    static func date(_ text: String, _ zone: String = "UTC") -> Date {
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: zone)
        format.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return format.date(from: text)!
    }

    @Test(arguments: [
        // Over midnight, 22:00 to 07:00, in Lisbon (UTC+0 in winter).
        ("2026-11-20 21:59:00", "2026-11-20 21:59:00"),
        ("2026-11-20 22:00:00", "2026-11-21 07:00:00"),
        ("2026-11-20 23:30:00", "2026-11-21 07:00:00"),
        ("2026-11-21 00:00:00", "2026-11-21 07:00:00"),
        ("2026-11-21 06:59:00", "2026-11-21 07:00:00"),
        ("2026-11-21 07:00:00", "2026-11-21 07:00:00"),
    ])
    func quietHoursOverMidnight(planned: String, expected: String) {
        let zone = TimeZone(identifier: "Europe/Lisbon")!
        let moved = SendTime.outsideQuietHours(
            Self.date(planned, "Europe/Lisbon"), start: LocalTime("22:00"), end: LocalTime("07:00"), in: zone)
        #expect(moved == Self.date(expected, "Europe/Lisbon"))
    }

    /// Lisbon's clocks go forward at 01:00 on 2026-03-29: quiet hours that end at 07:00 end
    /// at 07:00 on the new clock, an hour sooner than eight hours after 23:00.
    @Test func quietHoursAcrossAClockChangeEndAtTheWallClockTime() {
        let zone = TimeZone(identifier: "Europe/Lisbon")!
        let moved = SendTime.outsideQuietHours(
            Self.date("2026-03-28 23:00:00", "Europe/Lisbon"), start: LocalTime("22:00"), end: LocalTime("07:00"),
            in: zone)
        #expect(moved == Self.date("2026-03-29 07:00:00", "Europe/Lisbon"))
        #expect(moved == Self.date("2026-03-29 06:00:00"))
    }

    @Test func quietHoursWithinADayAndMalformedOnes() {
        let zone = TimeZone(identifier: "Asia/Tokyo")!
        let at = { Self.date($0, "Asia/Tokyo") }
        #expect(
            SendTime.outsideQuietHours(
                at("2026-11-20 12:59:00"), start: LocalTime("13:00"), end: LocalTime("15:00"), in: zone)
                == at("2026-11-20 12:59:00"))
        #expect(
            SendTime.outsideQuietHours(
                at("2026-11-20 13:00:00"), start: LocalTime("13:00"), end: LocalTime("15:00"), in: zone)
                == at("2026-11-20 15:00:00"))
        #expect(
            SendTime.outsideQuietHours(
                at("2026-11-20 15:00:00"), start: LocalTime("13:00"), end: LocalTime("15:00"), in: zone)
                == at("2026-11-20 15:00:00"))
        for bad in ["25:00", "7:00", "07:60", "07-00", "", "٠٧:٠٠", "07:00:00"] {
            #expect(LocalTime(bad) == nil, "\(bad)")
            #expect(
                SendTime.outsideQuietHours(
                    at("2026-11-20 13:30:00"), start: LocalTime(bad), end: LocalTime("15:00"), in: zone)
                    == at("2026-11-20 13:30:00"))
        }
        #expect(
            SendTime.outsideQuietHours(
                at("2026-11-20 13:30:00"), start: LocalTime("13:00"), end: LocalTime("13:00"), in: zone)
                == at("2026-11-20 13:30:00"))
    }

    @Test func nineInTheMorningInTwoTimezones() {
        let planned = Self.date("2026-11-20 10:00:00")  // UTC
        // Lisbon (UTC+0): 09:00 has passed today, so tomorrow. Tokyo (UTC+9): 19:00 now, so tomorrow 09:00 = 00:00 UTC.
        #expect(
            SendTime.next(LocalTime("09:00")!, after: planned, in: TimeZone(identifier: "Europe/Lisbon")!)
                == Self.date("2026-11-21 09:00:00"))
        #expect(
            SendTime.next(LocalTime("09:00")!, after: planned, in: TimeZone(identifier: "Asia/Tokyo")!)
                == Self.date("2026-11-21 00:00:00"))
        // New York (UTC-5): 05:00 now, so 09:00 today = 14:00 UTC. Exactly 09:00 is now.
        #expect(
            SendTime.next(LocalTime("09:00")!, after: planned, in: TimeZone(identifier: "America/New_York")!)
                == Self.date("2026-11-20 14:00:00"))
        #expect(
            SendTime.next(
                LocalTime("09:00")!, after: Self.date("2026-11-20 14:00:00"),
                in: TimeZone(identifier: "America/New_York")!) == Self.date("2026-11-20 14:00:00"))
    }

    @Test func aLocalTimeThatDoesNotExistThatDayIsTheFirstMomentAfterTheGap() {
        // New York, 2026-03-08: clocks go from 02:00 to 03:00.
        let zone = TimeZone(identifier: "America/New_York")!
        let sent = SendTime.next(LocalTime("02:30")!, after: Self.date("2026-03-08 05:00:00"), in: zone)
        #expect(sent == Self.date("2026-03-08 03:00:00", "America/New_York"))
    }

    /// The profile shows quiet hours as the sender reads them: what the sender treats as none
    /// ("25:99", "7pm", one end missing) is unreadable, and the sender's own SQL function
    /// leaves a push in such hours where it was planned.
    @Test(
        arguments: [
            ("25:99", "07:00", false), ("7pm", "7am", false), ("22:00", nil, false), (nil, "07:00", false),
            ("12:00", "07:00", true), ("13:00", "15:00", true),
        ] as [(String?, String?, Bool)])
    func quietHoursTheSenderCannotReadAreUnreadable(start: String?, end: String?, applied: Bool) async throws {
        let reading = QuietHours(start: start.databaseValue, end: end.databaseValue)
        if applied {
            #expect(reading.quietPeriod != nil)
        } else {
            #expect(reading == .unreadable(start: start, end: end))
        }
        // 14:00 UTC falls in both real periods above.
        let due = try await DatabaseQueue().write { db in
            for function in SendTime.functions { db.add(function: function) }
            return try String.fetchOne(
                db, sql: "SELECT panel_due_at('2026-11-20 14:00:00', 'UTC', ?, ?, NULL, 'UTC')",
                arguments: [start, end])
        }
        #expect((due != "2026-11-20 14:00:00") == applied, "\(String(describing: due))")
        #expect(QuietHours(start: DatabaseValue.null, end: DatabaseValue.null) == QuietHours.none)
        #expect(QuietHours(start: "07:00".databaseValue, end: "07:00".databaseValue).quietPeriod == nil)
    }
}
