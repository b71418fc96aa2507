import AdminDomain
import Foundation
import Testing

/// Issue 34, `send_at`: the user's own reminder time or a window of local hours, quiet hours
/// always kept, never more than a day after the entry. The expected times are worked out by
/// hand below from the local clock of each case.
@Suite(.timeLimit(.minutes(20))) struct JourneySendAtTests {
    static func utc(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        return formatter.date(from: text)!
    }

    static let lisbon = TimeZone(identifier: "Europe/Lisbon")!  // UTC+0 in November
    static let tokyo = TimeZone(identifier: "Asia/Tokyo")!  // UTC+9
    static let none = QuietHours.none

    static func quiet(_ start: String, _ end: String) -> QuietHours {
        QuietHours(start: start.databaseValue, end: end.databaseValue)
    }

    @Test func dailyTimeIsTheUsersReminderTimeOrTheAppsDefault() {
        let entered = Self.utc("2026-11-18T11:06:40Z")
        #expect(
            JourneySendAt.dailyTime.due(
                entered: entered, zone: Self.lisbon, dailyTime: LocalTime("18:30"), quiet: Self.none)
                == Self.utc("2026-11-18T18:30:00Z"))
        // 09:00 has passed today: tomorrow's.
        #expect(
            JourneySendAt.dailyTime.due(entered: entered, zone: Self.lisbon, dailyTime: nil, quiet: Self.none)
                == Self.utc("2026-11-19T09:00:00Z"))
        // 20:06 in Tokyo; 21:00 there is 12:00 UTC.
        #expect(
            JourneySendAt.dailyTime.due(
                entered: entered, zone: Self.tokyo, dailyTime: LocalTime("21:00"), quiet: Self.none)
                == Self.utc("2026-11-18T12:00:00Z"))
    }

    @Test func aWindowSendsAtOnceInsideItElseAtItsStart() {
        let entered = Self.utc("2026-11-18T11:06:40Z")
        #expect(
            JourneySendAt.window(from: 10, to: 12).due(
                entered: entered, zone: Self.lisbon, dailyTime: nil, quiet: Self.none) == entered)
        #expect(
            JourneySendAt.window(from: 17, to: 20).due(
                entered: entered, zone: Self.lisbon, dailyTime: nil, quiet: Self.none)
                == Self.utc("2026-11-18T17:00:00Z"))
        // Over midnight, 22 to 6: starts at 22:00.
        #expect(
            JourneySendAt.window(from: 22, to: 6).due(
                entered: entered, zone: Self.lisbon, dailyTime: nil, quiet: Self.none)
                == Self.utc("2026-11-18T22:00:00Z"))
    }

    @Test func quietHoursAreKeptAndADayIsTheMost() {
        let entered = Self.utc("2026-11-18T11:06:40Z")
        // Reminder time 22:30 inside quiet hours 22:00–07:00: at 07:00 the next morning.
        #expect(
            JourneySendAt.dailyTime.due(
                entered: entered, zone: Self.lisbon, dailyTime: LocalTime("22:30"), quiet: Self.quiet("22:00", "07:00"))
                == Self.utc("2026-11-19T07:00:00Z"))
        // Window 10–13 with quiet hours 09:00–14:00: never within the window, so no time within a day.
        #expect(
            JourneySendAt.window(from: 10, to: 13).due(
                entered: entered, zone: Self.lisbon, dailyTime: nil, quiet: Self.quiet("09:00", "14:00")) == nil)
        // Window 20–23 with quiet hours 21:00–08:00: 20:00 today.
        #expect(
            JourneySendAt.window(from: 20, to: 23).due(
                entered: entered, zone: Self.lisbon, dailyTime: nil, quiet: Self.quiet("21:00", "08:00"))
                == Self.utc("2026-11-18T20:00:00Z"))
        // Entered at 10:30, window 10–11 but quiet 10:00–11:30: the next window is 10:00 tomorrow, still quiet; none.
        #expect(
            JourneySendAt.window(from: 10, to: 11).due(
                entered: Self.utc("2026-11-18T10:30:00Z"), zone: Self.lisbon, dailyTime: nil,
                quiet: Self.quiet("10:00", "11:30")) == nil)
    }

    @Test func unreadableStoredRulesAndOutOfRangeHoursAreRefused() {
        #expect(JourneySendAt(stored: "hourly", from: nil, to: nil) == nil)
        #expect(JourneySendAt(stored: "window", from: 5, to: 5) == nil)
        #expect(JourneySendAt(stored: "window", from: 24, to: 2) == nil)
        #expect(JourneySendAt.window(from: 3, to: 3).refusal != nil)
        #expect(JourneySendAt.window(from: -1, to: 3).refusal != nil)
        #expect(JourneyRules(trigger: .inactiveDays(6)).refusal != nil)
        #expect(JourneyRules(trigger: .inactiveDays(7), reentryDays: 0).refusal != nil)
        #expect(JourneyRules(trigger: .inactiveDays(7), reentryDays: 365, dailyLimit: 1).refusal == nil)
        #expect(JourneyRules(trigger: .firstDays(2, fewerItems: 51)).refusal != nil)
        #expect(JourneyRules(trigger: .subscriptionEnding(15)).refusal != nil)
    }
}
