import Foundation
import Testing

@testable import AdminDomain
@testable import AdminWeb

/// The reminder health page from a snapshot made by hand, and the alert banner, as `.html`
/// snapshots under `__Snapshots__/SnapshotsReminders/`.
@Suite(.timeLimit(.minutes(20))) struct SnapshotsReminders {
    static let now = SQLiteTime.date("2026-11-23 10:00:00")!

    static func figures(
        due: Int, sent: Int, onTime: Int, failed: Int = 0, cancelled: Int = 0, overdue: Int = 0, opened: Int = 0,
        lateness: ReminderFigures.Lateness? = nil
    ) -> ReminderFigures {
        var figures = ReminderFigures()
        figures.due = due
        figures.sent = sent
        figures.sentOnTime = onTime
        figures.failed = failed
        figures.cancelled = cancelled
        figures.overdue = overdue
        figures.waiting = 1
        figures.opened = opened
        figures.sentTimeUnreadable = 2
        figures.sentBeforeScheduled = 1
        figures.lateness = lateness
        return figures
    }

    /// A day with late and overdue reminders, a kind the app stored as markup and a
    /// days_before that is no number; the last hour still going on.
    static var snapshot: ReminderHealthSnapshot {
        let end = Int64(now.timeIntervalSince1970)
        let overall = figures(
            due: 1_204, sent: 1_100, onTime: 950, failed: 40, cancelled: 14, overdue: 50, opened: 600,
            lateness: .init(count: 1_097, p50: 12, p90: 95, p99: 3_725, max: 200_000))
        let points = (0..<24).map { index in
            ReminderHealthReport.Point(
                start: end - 3_600 * Int64(23 - index) - 3_600 + 1, partial: index == 23,
                figures: index == 5
                    ? ReminderFigures()
                    : figures(
                        due: 50, sent: 45, onTime: 40 - index % 7, overdue: index % 4,
                        lateness: .init(count: 45, p50: 10, p90: 30 + Int64(index) * 5, p99: 300, max: 400)))
        }
        let day = ReminderHealthReport(
            range: .day, from: end - 86_400, until: end, figures: overall,
            byKind: [
                "food": figures(due: 1_000, sent: 920, onTime: 800),
                "document": figures(due: 200, sent: 178, onTime: 150),
                Hostile.script: figures(due: 4, sent: 2, onTime: 0),
            ],
            byDaysBefore: [
                1: figures(due: 700, sent: 650, onTime: 600), 3: figures(due: 500, sent: 448, onTime: 350),
                nil: figures(due: 4, sent: 2, onTime: 0),
            ],
            byPlatforms: [
                .iosOnly: figures(due: 600, sent: 580, onTime: 500), .both: figures(due: 100, sent: 90, onTime: 80),
                .none: figures(due: 504, sent: 430, onTime: 370),
            ],
            points: points,
            sc002: ReminderCriterion(numerator: 410, denominator: 500, target: 0.90),
            sc011: ReminderCriterion(numerator: 1_100, denominator: 1_140, target: 0.95))
        let hour = ReminderHealthReport(
            range: .hour, from: end - 3_600, until: end, figures: ReminderFigures(), byKind: [:], byDaysBefore: [:],
            byPlatforms: [:], points: points, sc002: ReminderCriterion(numerator: 0, denominator: 0, target: 0.90),
            sc011: ReminderCriterion(numerator: 0, denominator: 0, target: 0.95))
        return ReminderHealthSnapshot(
            asOf: now, reports: [.day: day, .hour: hour], alerts: alerts, newestAppData: now.addingTimeInterval(-7_200),
            scheduledTimeUnreadable: 3, lastFullCount: now.addingTimeInterval(-600))
    }

    static let alerts = [
        ReminderAlert(
            kind: .nothingSent, sentence: "No reminder was sent in the last hour while 120 fell due.",
            since: now.addingTimeInterval(-3_000), began: .fromData, asOf: now),
        ReminderAlert(
            kind: .noAppData,
            sentence: "No app data since 2026-11-23 08:00:00 UTC: the backend may have stopped writing.",
            since: now.addingTimeInterval(-3_600), began: .fromData, asOf: now),
        ReminderAlert(
            kind: .onTimeBelowTarget, sentence: "Only 42.0% of the reminders due in the last hour were sent on time.",
            since: now.addingTimeInterval(-900), began: .firstSeen, asOf: now),
    ]

    @Test func remindersView() {
        let viewer = SnapshotsUsers.viewer
        assertPageSnapshot(
            of: RemindersView(
                model: RemindersModel(range: .day, snapshot: Self.snapshot, refreshSeconds: 30), viewer: viewer),
            "dayWithLateAndOverdue")
        assertPageSnapshot(
            of: RemindersView(
                model: RemindersModel(range: .hour, snapshot: Self.snapshot, refreshSeconds: 30), viewer: viewer),
            "hourWithNothingDue")
        assertPageSnapshot(
            of: RemindersView(model: RemindersModel(range: .week, snapshot: nil, refreshSeconds: 30), viewer: viewer),
            "beingCounted")
    }

    /// The banner as every signed-in page shows it while alerts hold.
    @Test func alertBanner() {
        ReminderAlertsMiddleware.$current.withValue(Self.alerts) {
            assertPageSnapshot(
                of: RemindersView(
                    model: RemindersModel(range: .week, snapshot: nil, refreshSeconds: 30),
                    viewer: SnapshotsAccountAndLogin.viewer), "alertBanner")
        }
    }

    @Test func durationsReadAsPeopleSayThem() {
        #expect(ReminderHealthSummary.duration(0) == "0 s")
        #expect(ReminderHealthSummary.duration(59) == "59 s")
        #expect(ReminderHealthSummary.duration(60) == "1 min")
        #expect(ReminderHealthSummary.duration(200) == "3 min 20 s")
        #expect(ReminderHealthSummary.duration(3_725) == "1 h 2 min")
        #expect(ReminderHealthSummary.duration(200_000) == "2 d 7 h")
    }
}
