import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import AdminDomain
@testable import AdminWeb

/// Journeys' pages through the real router (issue 34, points 1, 6 and 7).
@Suite(.timeLimit(.minutes(20))) struct JourneyPages {
    static let marketing = "market@example.com"
    static let winBack: [(String, String)] = [
        ("name", "Win-back"), ("trigger", "inactive_days"), ("trigger_days", "30"), ("title", "We miss you"),
        ("body", "Your pantry misses you too"), ("ttl", "86400"), ("send_at", "daily_time"),
        ("holdout_percent", "10"), ("goal", "item_added"), ("goal_days", "7"),
    ]

    static func id(from response: TestResponse) throws -> Int64 {
        let location = try #require(response.headers[.location])
        return try #require(Int64(location.prefix { $0 != "?" }.split(separator: "/").last ?? ""))
    }

    static func actions(_ panel: TestPanel) async throws -> [String] {
        try await panel.areas.database.read { db in
            try String.fetchAll(db, sql: "SELECT action FROM panel_audit_log WHERE action LIKE 'journey_%' ORDER BY id")
        }
    }

    @Test func badInputComesBackWithEverythingTypedAndASentencePerProblem() async throws {
        let panel = try await TestPanel(areas: [.journeys])
        defer { panel.remove() }
        try await panel.test { client in
            let cookie = try await panel.signIn(client)
            let typed: [(String, String)] = [
                ("name", "Keep <me>"), ("trigger", "inactive_days"), ("trigger_days", "3"), ("title", "Typed & kept"),
                ("body", "Body stays"), ("platform", "windows"), ("send_at", "window"), ("window_from", "9"),
                ("window_to", "9"), ("holdout_percent", "70"), ("reentry_days", "400"), ("ttl", "86400"),
            ]
            let answer = try await client.postSigned("/journeys/new", typed, session: cookie)
            #expect(answer.status == .badRequest)
            let text = answer.text
            #expect(text.contains("There is no platform “windows”"), "an unknown value is refused, not replaced")
            #expect(
                text.contains("Inactive days must be from 7 to 180")
                    || text.contains("A sending window must not start and end at the same hour"))
            #expect(
                text.contains("The holdout must be a whole number from 0 to 50")
                    || text.contains("A journey's holdout must be from 0 to 50 percent"))
            #expect(text.contains("value=\"Keep &lt;me&gt;\""), "the name as typed, escaped")
            #expect(text.contains("value=\"Typed &amp; kept\"") && text.contains(">Body stays</textarea>"))
            #expect(text.contains("value=\"400\"") && text.contains("value=\"70\""))
            // An unknown trigger is refused too, with the rest kept.
            let unknown = try await client.postSigned(
                "/journeys/new", [("trigger", "birthday")] + Self.winBack.filter { $0.0 != "trigger" }, session: cookie)
            #expect(unknown.status == .badRequest && unknown.text.contains("There is no trigger “birthday”"))
            #expect(unknown.text.contains("value=\"We miss you\""))
            // Refused on its way (a control character): the journey form again, filled in, not an error page.
            let control = try await client.postSigned(
                "/journeys/new", Self.winBack.map { $0.0 == "name" ? ($0.0, "Bell\u{07}") : $0 }, session: cookie)
            #expect(
                control.status == .badRequest && control.text.contains("id=\"journey-form\"")
                    && control.text.contains("value=\"We miss you\""))
        }
        #expect(try await panel.areas.journeys.journeys.list().isEmpty, "nothing saved")
    }

    @Test func createActivatePauseResumeEndEachAuditedAndEditRefusedOnceActive() async throws {
        let panel = try await TestPanel(areas: [.journeys])
        defer { panel.remove() }
        try await panel.addStaff(Self.marketing, role: .marketing)
        try await panel.test { client in
            let cookie = try await panel.signIn(client, email: Self.marketing)
            let created = try await client.postSigned("/journeys/new", Self.winBack, session: cookie)
            #expect(created.status == .seeOther)
            let id = try Self.id(from: created)
            // The dry run is computed in the background: the page refreshes itself until it is there.
            var page = ""
            for _ in 0..<600 {
                page = try await client.get("/journeys/\(id)", cookie: cookie).text
                if page.contains("Would be sent the push") { break }
                #expect(page.contains("http-equiv=\"refresh\""))
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(page.contains("Would be sent the push") && page.contains("has not opened the app for 30 days"))
            #expect(
                page.contains("action=\"/journeys/\(id)/activate\"")
                    && !page.contains("action=\"/journeys/\(id)/pause\""))
            let edited = try await client.postSigned(
                "/journeys/\(id)/edit", Self.winBack.map { $0.0 == "trigger_days" ? ($0.0, "45") : $0 }, session: cookie
            )
            #expect(edited.status == .seeOther)
            for (action, word) in [("activate", "active"), ("pause", "paused"), ("resume", "active"), ("end", "ended")]
            {
                let moved = try await client.postSigned("/journeys/\(id)/\(action)", session: cookie)
                #expect(moved.status == .seeOther, "\(action)")
                let after = try await client.get("/journeys/\(id)", cookie: cookie).text
                #expect(after.contains("id=\"journey-status\">\(word)<"), "\(action)")
                if action == "activate" {
                    let edit = try await client.get("/journeys/\(id)/edit", cookie: cookie)
                    #expect(
                        edit.status == .conflict
                            && edit.text.contains("Only a draft can be edited: this journey is active."))
                    let save = try await client.postSigned("/journeys/\(id)/edit", Self.winBack, session: cookie)
                    #expect(save.status == .conflict && save.text.contains("Nothing was saved"))
                    let again = try await client.postSigned("/journeys/\(id)/activate", session: cookie)
                    #expect(
                        again.status == .conflict && again.text.contains("Nothing changed"),
                        "a refused move is a message, not a 500")
                    #expect(after.contains("id=\"report\""))
                }
            }
            let csv = try await client.get("/journeys/\(id)/report.csv", cookie: cookie)
            #expect(csv.status == .ok && csv.text.contains("section,day_utc,reason,entered,held_out,sent"))
            #expect(csv.text.contains("total,"))
            let list = try await client.get("/journeys", cookie: cookie)
            #expect(
                list.status == .ok && list.text.contains("href=\"/journeys/\(id)\"")
                    && list.text.contains("has not opened the app for 45 days"))
        }
        let actions = try await Self.actions(panel)
        #expect(
            actions == [
                "journey_created", "journey_edited", "journey_activated", "journey_paused", "journey_resumed",
                "journey_ended",
                "journey_report_exported",
            ])
    }

    @Test func supportReadsButCannotChangeAndUnknownIdsAre404() async throws {
        let panel = try await TestPanel(areas: [.journeys])
        defer { panel.remove() }
        let support = try await panel.addStaff()
        let id = try await panel.areas.journeys.journeys.create(
            JourneyDraft(
                campaign: CampaignDraft(title: "T", body: "B"), rules: JourneyRules(trigger: .inactiveDays(30))),
            by: .commandLine)
        try await panel.test { client in
            let cookie = try await panel.signIn(client, email: support)
            #expect(try await client.get("/journeys", cookie: cookie).status == .ok)
            let page = try await client.get("/journeys/\(id)", cookie: cookie)
            #expect(
                page.status == .ok && !page.text.contains("action=\"/journeys/\(id)/activate\""),
                "no buttons for support")
            #expect(try await client.get("/journeys/new", cookie: cookie).status == .forbidden)
            #expect(try await client.postSigned("/journeys/new", Self.winBack, session: cookie).status == .forbidden)
            #expect(try await client.postSigned("/journeys/\(id)/activate", session: cookie).status == .forbidden)
            #expect(try await client.postSigned("/journeys/\(id)/delete", session: cookie).status == .forbidden)
            let admin = try await panel.signIn(client)
            #expect(try await client.get("/journeys/999999", cookie: admin).status == .notFound)
            #expect(try await client.postSigned("/journeys/999999/activate", session: admin).status == .notFound)
            #expect(try await client.get("/journeys/999999/report.csv", cookie: admin).status == .notFound)
            // A campaign's id is not a journey.
            let campaign = try await panel.areas.campaigns.campaigns.create(
                CampaignDraft(title: "C", body: "B"), by: .commandLine)
            #expect(try await client.get("/journeys/\(campaign)", cookie: admin).status == .notFound)
            // A move the status does not allow: a message on the page, never a 500.
            let paused = try await client.postSigned("/journeys/\(id)/pause", session: admin)
            #expect(paused.status == .conflict && paused.text.contains("Nothing changed"))
            let deleted = try await client.postSigned("/journeys/\(id)/delete", session: admin)
            #expect(deleted.status == .seeOther && deleted.headers[.location] == "/journeys?notice=deleted")
            #expect(try await client.get("/journeys/\(id)", cookie: admin).status == .notFound)
        }
        #expect(try await Self.actions(panel) == ["journey_created", "journey_deleted"])
    }
}
