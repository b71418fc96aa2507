import AdminDomain
import Foundation
import GRDB
import TestSupport
import Testing

/// Issue 34, "once": an entry per journey, user and occurrence, whatever evaluates it again
/// or from which process; re-entry only for a new occurrence and only after `reentry_days`.
@Suite(.timeLimit(.minutes(20))) struct JourneyEntriesTests {
    static let now = Int64(TemporaryDatabase.seedNow.timeIntervalSince1970)
    static let day: Int64 = 86_400

    static func journey(_ queue: DatabaseQueue, reentryDays: Int?, status: String = "draft") async throws -> Int64 {
        try await queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO panel_campaigns (title, body, ttl_seconds, segment, status, created_at, kind)
                    VALUES ('Come back', 'We miss you', 86400, ?, ?, '2026-11-18 00:00:00', 'journey')
                    """, arguments: [CampaignSegment().storedText, status])
            let id = db.lastInsertedRowID
            try db.execute(
                sql: """
                    INSERT INTO panel_journeys (campaign_id, trigger, trigger_days, send_at, reentry_days)
                    VALUES (?, 'inactive_days', 30, 'daily_time', ?)
                    """, arguments: [id, reentryDays])
            return id
        }
    }

    static func rows(_ queue: DatabaseQueue, _ journey: Int64) async throws -> Int {
        try await queue.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM panel_journey_entries WHERE journey_id = ?", arguments: [journey]) ?? -1
        }
    }

    @Test func anOccurrenceEntersOnceFromAnyProcessAndReEntryWaitsItsDays() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 20, now: TemporaryDatabase.seedNow)
        defer { temp.remove() }
        _ = try await PanelDatabase.open(path: temp.path)  // the panel's tables
        let first = try DatabaseQueue(path: temp.path)
        let second = try DatabaseQueue(path: temp.path)
        let never = try await Self.journey(first, reentryDays: nil)
        let weekly = try await Self.journey(first, reentryDays: 7)
        let a1 = TriggerCrossing(userID: 1, occurrence: "2026-10-19 11:00:00")
        let b1 = TriggerCrossing(userID: 2, occurrence: "2026-10-19 11:00:05")
        let a2 = TriggerCrossing(userID: 1, occurrence: "2026-10-25 08:00:00")

        for journey in [never, weekly] {
            #expect(
                try await first.write { db in
                    try JourneyEntries.enter(journeyID: journey, [a1, b1], reentryDays: nil, now: Self.now, in: db)
                }
                    == .init(entered: 2))
            // The same crossings again, from another connection (a second panel process).
            #expect(
                try await second.write { db in
                    try JourneyEntries.enter(
                        journeyID: journey, [a1, b1, a1], reentryDays: nil, now: Self.now + 60, in: db)
                }
                    == .init(alreadyEntered: 3))
            #expect(try await Self.rows(first, journey) == 2)
        }
        // A new occurrence: never re-enters; weekly after 7 days, not a second before.
        #expect(
            try await first.write { db in
                try JourneyEntries.enter(
                    journeyID: never, [a2], reentryDays: nil, now: Self.now + 30 * Self.day, in: db)
            }
                == .init(reentryRefused: 1))
        #expect(
            try await first.write { db in
                try JourneyEntries.enter(
                    journeyID: weekly, [a2], reentryDays: 7, now: Self.now + 7 * Self.day - 1, in: db)
            }
                == .init(reentryRefused: 1))
        #expect(
            try await first.write { db in
                try JourneyEntries.enter(journeyID: weekly, [a2], reentryDays: 7, now: Self.now + 7 * Self.day, in: db)
            }
                == .init(entered: 1))
        #expect(try await Self.rows(first, never) == 2)
        #expect(try await Self.rows(first, weekly) == 3)

        // An entry stamped in the future (a clock ahead) is never older than the wait.
        try await first.write { db in
            try db.execute(
                sql: """
                    INSERT INTO panel_journey_entries (journey_id, user_id, occurrence, entered_at, state)
                    VALUES (?, 3, '2026-10-01 00:00:00', '2027-06-01 00:00:00', 'entered')
                    """, arguments: [weekly])
        }
        let c2 = TriggerCrossing(userID: 3, occurrence: "2026-10-20 00:00:00")
        #expect(
            try await first.write { db in
                try JourneyEntries.enter(journeyID: weekly, [c2], reentryDays: 7, now: Self.now + 30 * Self.day, in: db)
            }
                == .init(reentryRefused: 1))
    }
}
