import AdminDomain
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import AdminWeb

/// The reminder health page, its CSV, the alert banner and /health's reminders object, over
/// HTTP on a seeded database (the figures themselves are checked against SQL in the domain's
/// tests: here, that the page shows the monitor's snapshot as it stands).
@Suite(.timeLimit(.minutes(20))) struct RemindersPage {
    @Test func showsTheSnapshotsFiguresForEachRangeToEveryRole() async throws {
        let panel = try await TestPanel(areas: [.reminders, .dashboard], users: 200)
        defer { panel.remove() }
        try await panel.areas.reminders.monitor.refresh(full: true)
        try await panel.addStaff(TestPanel.supportEmail, role: .support)
        try await panel.addStaff("marketing@example.com", role: .marketing)
        try await panel.test { client in
            let snapshot = try #require(panel.areas.reminders.monitor.latest())
            for email in [TestPanel.email, TestPanel.supportEmail, "marketing@example.com"] {
                let cookie = try await panel.signIn(client, email: email)
                let home = try await client.get("/", cookie: cookie)
                #expect(
                    home.text.contains("<a href=\"/reminders\">Reminders</a>"),
                    "the top navigation links to it for \(email)")
                for range in ReminderRange.allCases {
                    let page = try await client.get("/reminders?range=\(range.rawValue)", cookie: cookie)
                    #expect(page.status == .ok, "\(email) \(range)")
                    let text = page.text
                    let report = try #require(snapshot.report(range))
                    let figures = report.figures
                    for (label, value) in [
                        ("Due", figures.due), ("Sent", figures.sent), ("Sent on time", figures.sentOnTime),
                        ("Failed", figures.failed), ("Cancelled", figures.cancelled), ("Overdue", figures.overdue),
                        ("Opened", figures.opened),
                    ] {
                        #expect(
                            text.contains("<h2>\(label)</h2><p class=\"stat-value\">\(value.grouped)</p>"),
                            "\(range) \(label)")
                    }
                    #expect(text.contains("aria-current=\"true\" class=\"current\">\(range.label)<"), "\(range)")
                    #expect(text.contains("SC-002") && text.contains("SC-011"))
                    #expect(text.contains("never in a percentile"))
                    #expect(text.contains(range.bucketSeconds == 3_600 ? "By hour, the last 24 hours" : "By day"))
                    #expect(text.contains("/reminders.csv?range=\(range.rawValue)"))
                }
            }
        }
    }

    @Test func anUnknownRangeIsRefusedWithTheSentence() async throws {
        let panel = try await TestPanel(areas: [.reminders, .dashboard])
        defer { panel.remove() }
        try await panel.test { client in
            let cookie = try await panel.signIn(client)
            for bad in ["2h", "24", "1H", "%3Cb%3E", "", "1h&range=1h", "1h&range=7d", "%E2%80%AE1h"] {
                for path in ["/reminders", "/reminders.csv"] {
                    let page = try await client.get("\(path)?range=\(bad)", cookie: cookie)
                    #expect(page.status == .badRequest, "\(path) \(bad)")
                    #expect(!page.text.contains("<b>"), "\(bad) is escaped")
                }
            }
            let page = try await client.get("/reminders?range=2h", cookie: cookie)
            #expect(page.text.contains(ReminderRange.refusal("2h")) && page.text.contains("There is no range “2h”"))
            #expect(try await client.get("/reminders", cookie: cookie).status == .ok, "no range is the last 24 hours")
            #expect(
                try await client.get("/reminders?range=", cookie: cookie).text.contains(
                    "Choose a range: 1h, 24h, 7d or 30d."))
            #expect(
                try await client.get("/reminders?range=1h&range=7d", cookie: cookie).text.contains(
                    "Give one range, not 2"))
            // A right-to-left override is shown as �, so the sentence reads as written.
            #expect(
                try await client.get("/reminders?range=%E2%80%AE1h", cookie: cookie).text.contains(
                    "There is no range “\u{FFFD}1h”"))
        }
    }

    /// Before the first count the page answers at once that the figures are being counted:
    /// no background job runs here, so the monitor has none.
    @Test func beforeTheFirstCountThePageSaysTheFiguresAreBeingCounted() async throws {
        let panel = try await TestPanel(areas: [.reminders, .dashboard])
        defer { panel.remove() }
        let app = Application(router: panel.router().router)
        try await app.test(.router) { client in
            let cookie = try await panel.signIn(client)
            #expect(try panel.areas.reminders.monitor.latest() == nil)
            let page = try await client.get("/reminders?range=7d", cookie: cookie)
            #expect(page.status == .ok)
            #expect(page.text.contains("The reminder figures are being counted"))
            #expect(page.text.contains("http-equiv=\"refresh\""))
            let health = try JSONDecoder.snakeCase.decode(
                HealthController.Report.self, from: Data(buffer: try await client.get("/health").body))
            #expect(health.reminders == HealthController.Reminders(nil))
            #expect(!health.reminders.counted && health.reminders.alerts.isEmpty)
            // Nor does the file wait for it (issue 46): a sentence, and when to come back.
            let csv = try await client.get("/reminders.csv?range=7d", cookie: cookie)
            #expect(csv.status == .serviceUnavailable && csv.text.contains("The reminder figures are being counted"))
            #expect(csv.headers[.retryAfter] != nil)
        }
    }

    @Test func theCSVHasTheFiguresOverallAndForEachSplit() async throws {
        let panel = try await TestPanel(areas: [.reminders, .dashboard], users: 200)
        defer { panel.remove() }
        try await panel.areas.reminders.monitor.refresh(full: true)
        try await panel.test { client in
            let cookie = try await panel.signIn(client)
            let report = try #require(panel.areas.reminders.monitor.latest()?.report(.week))
            let response = try await client.get("/reminders.csv?range=7d", cookie: cookie)
            #expect(response.status == .ok && response.headers[.contentType]?.hasPrefix("text/csv") == true)
            #expect(response.headers[.contentDisposition]?.contains("reminders-7d.csv") == true)
            let lines = response.text.dropFirst().split(separator: "\r\n").map {
                $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            }
            #expect(lines.first == RemindersModel.csvHeader)
            #expect(lines.count == 2 + report.byKind.count + report.byDaysBefore.count + report.byPlatforms.count)
            let all = try #require(lines.dropFirst().first)
            #expect(
                all.prefix(6) == [
                    "7d", "all", "all", String(report.figures.due), String(report.figures.sent),
                    String(report.figures.sentOnTime),
                ])
            let kinds = lines.filter { $0.count > 1 && $0[1] == "kind" }
            #expect(kinds.map { Int($0[3]) ?? -1 }.reduce(0, +) == report.figures.due, "the kinds add up to all due")
        }
    }

    /// Reminders fall due and none is sent: the banner is on every signed-in page and on
    /// /health (still 200), not on the sign-in page; once they are sent it goes.
    @Test func theBannerShowsWhileNothingIsSentAndGoesWhenItResumes() async throws {
        let panel = try await TestPanel(areas: [.reminders, .dashboard], users: 100)
        defer { panel.remove() }
        let now = Date()
        try await panel.areas.database.write { db in
            let user = try Int64.fetchOne(db, sql: "SELECT id FROM users ORDER BY id LIMIT 1")!
            // The app is in use (so no "no app data" alert), but its backend sends no reminder.
            try db.execute(
                sql: "INSERT INTO activity_events (user_id, kind, created_at) VALUES (?, 'login', ?)",
                arguments: [user, SQLiteTime.string(now.addingTimeInterval(-60))])
            // The last hour: nothing sent, 30 due and waiting.
            try db.execute(
                sql: "DELETE FROM reminders WHERE scheduled_for > ?",
                arguments: [SQLiteTime.string(now.addingTimeInterval(-3_700))])
            for minute in 0..<30 {
                try db.execute(
                    sql: """
                        INSERT INTO reminders (user_id, item_kind, item_id, days_before, scheduled_for, status)
                          VALUES (?, 'food', ?, 1, ?, 'scheduled')
                        """,
                    arguments: [
                        user, 900_000 + minute, SQLiteTime.string(now.addingTimeInterval(-Double(minute + 10) * 60)),
                    ])
            }
        }
        try await panel.areas.reminders.monitor.refresh(full: true)
        try await panel.test { client in
            try await panel.areas.reminders.monitor.refresh(full: true)
            let alerts = try #require(panel.areas.reminders.monitor.latest()?.alerts)
            #expect(alerts.map(\.kind).contains(.nothingSent))
            let cookie = try await panel.signIn(client)
            for path in ["/", "/users", "/account/sessions", "/reminders"] {
                let page = try await client.get(path, cookie: cookie)
                #expect(page.text.contains("class=\"banner reminder-alert\""), "\(path)")
                #expect(page.text.contains("No reminder was sent in the last hour while 30 fell due"), "\(path)")
                #expect(page.text.contains("Since <time"), "\(path)")
                #expect(page.text.contains("<a href=\"/reminders?range=1h\">See the reminder figures</a>"), "\(path)")
            }
            let login = try await client.get("/login")
            #expect(
                !login.text.contains("reminder-alert") && !login.text.contains("No reminder was sent"),
                "signed-out pages show no banner")
            let health = try await client.get("/health")
            #expect(health.status == .ok)
            let report = try JSONDecoder.snakeCase.decode(HealthController.Report.self, from: Data(buffer: health.body))
            #expect(report.status == "ok")
            #expect(
                report.reminders.counted
                    && report.reminders.alerts.contains {
                        $0.kind == "nothing_sent" && $0.sentence.contains("30 fell due")
                    })
            #expect(
                report.reminders.lastHour?.due == 30 && report.reminders.lastHour?.sent == 0
                    && report.reminders.lastHour?.overdue == 30)
            #expect(report.reminders.asOf != nil)

            // The backend resumes: each sent 10 s after its time.
            try await panel.areas.database.write { db in
                try db.execute(
                    sql:
                        "UPDATE reminders SET status = 'sent', sent_at = datetime(scheduled_for, '+10 seconds') "
                        + "WHERE item_id >= 900000"
                )
            }
            try await panel.areas.reminders.monitor.refresh(full: true)
            let after = try await client.get("/", cookie: cookie)
            #expect(!after.text.contains("reminder-alert"), "the banner goes once reminders are sent")
            let healthAfter = try JSONDecoder.snakeCase.decode(
                HealthController.Report.self, from: Data(buffer: try await client.get("/health").body))
            #expect(healthAfter.reminders.alerts.isEmpty && healthAfter.reminders.lastHour?.sentOnTime == 30)
        }
    }
}
