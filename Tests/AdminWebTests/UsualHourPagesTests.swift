import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import AdminDomain
@testable import AdminWeb

/// Each user's usual hour through the real router: a campaign composed with it, frozen by the
/// launch the server makes, shows where its recipients' hours came from; a user's profile
/// shows their own.
@Suite(.timeLimit(.minutes(20))) struct UsualHourPages {
    /// The hour every test user was active at: 14:05 UTC on each of the six days before today.
    static let hour = 14

    /// As the backend would write it: every user in UTC without quiet hours, active at 14:05
    /// on the six days before today and at no other time. Returns how many users there are.
    static func activeAtTheHour(_ panel: TestPanel, now: Date) async throws -> Int {
        let today = Int(now.timeIntervalSince1970) / 86_400 * 86_400
        return try await DatabaseQueue(path: panel.temp.path).write { db in
            try db.execute(sql: "DELETE FROM activity_events")
            try db.execute(sql: "UPDATE users SET timezone = 'UTC'")
            try db.execute(sql: "UPDATE notification_settings SET quiet_start = NULL, quiet_end = NULL")
            let users = try Int64.fetchAll(db, sql: "SELECT id FROM users")
            for user in users {
                for day in 1...6 {
                    let stamp = SQLiteTime.string(
                        Date(timeIntervalSince1970: TimeInterval(today - day * 86_400 + Self.hour * 3_600 + 300)))
                    try db.execute(
                        sql:
                            "INSERT INTO activity_events (user_id, kind, platform, created_at) VALUES (?, "
                            + "'app_opened', 'ios', ?)",
                        arguments: [user, stamp])
                }
            }
            return users.count
        }
    }

    /// The page's row of one local hour, as far as its end.
    static func row(_ page: String, hour: Int) -> String {
        page.components(separatedBy: "id=\"send-hour-\(hour)\"").dropFirst().first?.components(separatedBy: "</tr>")
            .first ?? ""
    }

    @Test func theCampaignPageShowsTheSendHoursOfARealFreeze() async throws {
        let panel = try await TestPanel(areas: [.campaigns, .journeys, .support])
        defer { panel.remove() }
        try await panel.addStaff(CampaignPages.marketing, role: .marketing)
        _ = try await Self.activeAtTheHour(panel, now: Date())
        let figures = try await UsualHourRefresh(database: panel.areas.database, defaultTimeZone: "UTC").run(
            now: Date())
        #expect(!figures.building && figures.built > 0)
        let reachable = try await panel.areas.campaigns.campaigns.audience.count(
            CampaignSegment(), in: panel.areas.database
        ).reachableUsers
        #expect(reachable > 20, "enough users to draw a control from")
        try await panel.test { client in
            let cookie = try await panel.signIn(client, email: CampaignPages.marketing)
            let created = try await client.postSigned(
                "/campaigns/new",
                [
                    ("title", "Hello"), ("body", "There"), ("ttl", "86400"), ("when", "now"),
                    ("timing", "usual_hour"), ("timing_control_percent", "20"),
                ], session: cookie)
            #expect(created.status == .seeOther)
            let location = try #require(created.headers[.location])
            let path = String(location.prefix { $0 != "?" })
            let id = try #require(Int64(path.split(separator: "/").last ?? ""))
            let draft = try await CampaignPages.waitForPreview(client, path, cookie: cookie)
            let editor = try await client.get("/campaigns/\(id)/edit", cookie: cookie).text
            #expect(
                editor.contains("<option value=\"usual_hour\" selected>")
                    && editor.contains("name=\"timing_control_percent\" id=\"timing_control_percent\" value=\"20\""),
                "the edit form keeps the timing")
            #expect(draft.contains("at each user's usual hour within 24 hours (control 20% at the fixed time)"))
            let confirm = try await client.get("/campaigns/\(id)/confirm", cookie: cookie)
            #expect(
                confirm.text.contains(
                    "Timing: at each user's usual hour within 24 hours (control 20% at the fixed time)."))
            let launched = try await client.postSigned(
                "/campaigns/\(id)/confirm", [("counted_at", try #require(MarketingPagesAgree.stamp(confirm.text)))],
                session: cookie)
            #expect(launched.status == .seeOther)
            var page = ""
            for _ in 0..<600 {
                page = try await client.get(path, cookie: cookie).text
                if page.contains("id=\"send-hours\"") { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(page.contains("id=\"send-hours\""), "the send hours appear once the audience is frozen")
            // Every recipient is either at their usual hour or in the control, each once.
            let usual = try #require(Int(Self.capture(page, #"(\d+) users? at their usual hour"#) ?? ""))
            let control = try #require(Int(Self.capture(page, #"(\d+) users? in the control"#) ?? ""))
            #expect(usual + control == reachable, "\(usual) + \(control) against \(reachable) reachable")
            #expect(usual > 0 && control > 0)
            // All of them were active at 14:00 on six days: their own hour, none moved.
            #expect(
                Self.row(page, hour: Self.hour).contains(">\(usual)<"),
                Comment(rawValue: Self.row(page, hour: Self.hour)))
            for other in [0, 9, 13, 15, 23] where other != Int(Date().timeIntervalSince1970) % 86_400 / 3_600 {
                #expect(!Self.row(page, hour: other).contains(">\(usual)<"))
            }
            #expect(
                page.contains("Where the usual hours came from: own activity \(usual), peers 0, everyone 0, no data 0.")
            )
            #expect(page.contains("Moved by quiet hours 0, at the fixed time by the deadline 0."))
            #expect(
                page.contains("hours are each recipient's local time")
                    || page.contains("hours are each recipient&#39;s local time"))
            // A duplicate keeps the timing.
            let duplicated = try await client.postSigned("/campaigns/\(id)/duplicate", session: cookie)
            let copy = try await client.follow(duplicated, cookie: cookie)
            #expect(
                copy.text.contains("Copy of")
                    && copy.text.contains("at each user's usual hour within 24 hours (control 20% at the fixed time)"))
            // The background job is a line of /health like the others.
            let health = try await client.get("/health")
            #expect(health.text.contains("\"usual-hours\""))
        }
    }

    @Test func theJourneyPageShowsTheSendHoursOfItsEntries() async throws {
        let panel = try await TestPanel(areas: [.campaigns, .journeys, .support])
        defer { panel.remove() }
        try await panel.addStaff(JourneyPages.marketing, role: .marketing)
        let users = try await Self.activeAtTheHour(panel, now: Date())
        _ = try await UsualHourRefresh(database: panel.areas.database, defaultTimeZone: "UTC").run(now: Date())
        try await panel.test { client in
            let cookie = try await panel.signIn(client, email: JourneyPages.marketing)
            let fields =
                JourneyPages.winBack.filter { $0.0 != "holdout_percent" && $0.0 != "goal" }
                + [("timing", "usual_hour"), ("timing_control_percent", "25")]
            let created = try await client.postSigned("/journeys/new", fields, session: cookie)
            #expect(created.status == .seeOther)
            let id = try JourneyPages.id(from: created)
            #expect(try await client.postSigned("/journeys/\(id)/activate", session: cookie).status == .seeOther)
            let before = try await client.get("/journeys/\(id)", cookie: cookie).text
            #expect(!before.contains("id=\"send-hours\""), "nothing planned yet, no section")
            // Every user crosses the trigger: entered as the journeys job enters them.
            let now = Int64(Date().timeIntervalSince1970)
            let entered = try await panel.areas.database.write { db in
                let plan = try #require(try JourneyPlan.load(id, in: db))
                let crossings = (try Int64.fetchAll(db, sql: "SELECT id FROM users")).map {
                    TriggerCrossing(userID: $0, occurrence: "2026-01-01 00:00:00")
                }
                let admissions = try JourneyAdmission.read(
                    crossings, plan: plan, audience: try panel.areas.journeys.journeys.audience, defaultTimeZone: "UTC",
                    now: now, in: db)
                return try JourneyEntries.enter(
                    journeyID: id, admissions, reentryDays: nil, dailyLimit: nil, now: now, in: db
                ).entered
            }
            #expect(entered > 20 && entered <= users)
            let page = try await client.get("/journeys/\(id)", cookie: cookie).text
            #expect(page.contains("id=\"send-hours\""))
            let usual = try #require(Int(Self.capture(page, #"(\d+) users? at their usual hour"#) ?? ""))
            let control = try #require(
                Int(
                    Self.capture(page, #"(\d+) users? in the control, sent at the journey's fixed time"#)
                        ?? Self.capture(page, #"(\d+) users? in the control, sent at the journey&#39;s fixed time"#)
                        ?? ""))
            let sentOrWaiting = try await panel.areas.database.read { db in
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM panel_journey_entries WHERE journey_id = ? AND timing IS NOT NULL",
                    arguments: [id]) ?? -1
            }
            #expect(
                usual + control == sentOrWaiting && usual > 0 && control > 0,
                "\(usual) + \(control) against \(sentOrWaiting) entries")
            #expect(
                Self.row(page, hour: Self.hour).contains(">\(usual)<"),
                Comment(rawValue: Self.row(page, hour: Self.hour)))
            #expect(
                page.contains("Where the usual hours came from: own activity \(usual), peers 0, everyone 0, no data 0.")
            )
        }
    }

    @Test func aUsersProfileShowsTheirUsualHourAndTheLookIsAudited() async throws {
        let panel = try await TestPanel(areas: [.campaigns, .journeys, .support])
        defer { panel.remove() }
        try await panel.addStaff()
        _ = try await Self.activeAtTheHour(panel, now: Date())
        _ = try await UsualHourRefresh(database: panel.areas.database, defaultTimeZone: "UTC").run(now: Date())
        let user = try #require(
            try await DatabaseQueue(path: panel.temp.path).read { db in
                try Int64.fetchOne(db, sql: "SELECT MIN(id) FROM users")
            })
        try await panel.test { client in
            let cookie = try await panel.signIn(client, email: TestPanel.supportEmail)
            let page = try await client.get("/users/\(user)", cookie: cookie)
            #expect(page.status == .ok)
            let line =
                page.text.components(separatedBy: "id=\"usual-hour\"").dropFirst().first?.components(
                    separatedBy: "</dl>"
                ).first ?? ""
            #expect(
                line.contains("Usual hour (local)") && line.contains("14:00, 6 of 60 days"), Comment(rawValue: line))
        }
        try await panel.areas.auth.signIn.unauthenticatedEvents.flush()
        let looks = try await panel.areas.database.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM panel_audit_log WHERE action = 'user_viewed' AND target = ?",
                arguments: ["user:\(user)"])
        }
        #expect(looks == 1, "the profile's look is audit-logged, usual hour and all")
    }

    static func capture(_ text: String, _ pattern: String) -> String? {
        guard let regex = try? NSRegularExpression(pattern: pattern),
            let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            let range = Range(match.range(at: 1), in: text)
        else { return nil }
        return String(text[range])
    }
}
