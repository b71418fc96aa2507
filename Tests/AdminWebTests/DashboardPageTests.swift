import AdminDomain
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import AdminWeb

@Suite(.timeLimit(.minutes(20))) struct DashboardPage {
    /// The page shows the refresher's snapshot as it stands: each headline figure, each
    /// chart, the criteria and the cohorts (the snapshot itself is checked against SQL in
    /// the domain's tests).
    @Test func showsTheSnapshotsFiguresForEachRange() async throws {
        let panel = try await TestPanel(areas: [.dashboard, .support], users: 400)
        defer { panel.remove() }
        try await panel.test { client in
            let cookie = try await panel.signIn(client)
            let snapshot = try await panel.areas.dashboard.refresher.snapshot()
            for range in DashboardRange.allCases {
                let page = try await client.get(SiteURL.dashboardRange(range).href, cookie: cookie)
                #expect(page.status == .ok)
                let text = page.text
                for figure in snapshot.headlines[range]! {
                    #expect(
                        text.contains(
                            "<h3>\(figure.name)</h3><div class=\"stat-line\">"
                                + "<p class=\"stat-value\">\(HeadlineCard.text(figure.value, figure.format))<"
                        ),
                        "\(range) \(figure.name)")
                }
                for chart in snapshot.charts {
                    #expect(text.contains("id=\"chart-\(chart.id.rawValue)\""), "\(chart.id)")
                    #expect(
                        text.contains(
                            SiteURL.dashboardCSV(chart.id, range).href.replacingOccurrences(of: "&", with: "&amp;")))
                }
                #expect(text.contains("aria-current=\"true\" class=\"current\">\(range.days) days<"))
                #expect(text.contains("SC-006") && text.contains("SC-014") && text.contains("heat-map"))
                #expect(text.contains("Count everything again now"), "an admin may start a full count")
            }
        }
    }

    @Test func anUnknownRangeOrChartIsRefusedWithASentence() async throws {
        let panel = try await TestPanel(areas: [.dashboard, .support])
        defer { panel.remove() }
        try await panel.test { client in
            let cookie = try await panel.signIn(client)
            for bad in ["13", "abc", "-7", "30.0", "%3Cb%3E"] {
                let page = try await client.get("/?range=\(bad)", cookie: cookie)
                #expect(page.status == .badRequest, "\(bad)")
                #expect(page.text.contains("The dashboard shows 7, 30, 90 or 365 days"), "\(bad)")
                #expect(!page.text.contains("<b>"))
            }
            let chart = try await client.get("/dashboard.csv?chart=%3Cscript%3E&range=30", cookie: cookie)
            #expect(
                chart.status == .notFound
                    && chart.text.contains("The dashboard has no chart called &quot;&lt;script&gt;&quot;")
                    || chart.text.contains("The dashboard has no chart called \"&lt;script&gt;\""))
            let range = try await client.get("/dashboard.csv?chart=sign-ups&range=8", cookie: cookie)
            #expect(range.status == .badRequest)
            let unnamed = try await client.get("/dashboard.csv?range=30", cookie: cookie)
            #expect(unnamed.status == .badRequest && unnamed.text.contains("Say which chart to download"))
        }
    }

    @Test func eachChartDownloadsAsCSVForTheRange() async throws {
        let panel = try await TestPanel(areas: [.dashboard, .support], users: 200)
        defer { panel.remove() }
        try await panel.test { client in
            let cookie = try await panel.signIn(client)
            let snapshot = try await panel.areas.dashboard.refresher.snapshot()
            for range in [DashboardRange.week, .year] {
                for chart in snapshot.charts {
                    let response = try await client.get(SiteURL.dashboardCSV(chart.id, range).href, cookie: cookie)
                    #expect(
                        response.status == .ok && response.headers[.contentType]?.hasPrefix("text/csv") == true,
                        "\(chart.id)")
                    let lines = response.text.split(separator: "\r\n", omittingEmptySubsequences: true)
                    let shown = chart.slice(for: range)
                    #expect(lines.count == shown.labels.count + 1, "\(chart.id) \(range)")
                    #expect(
                        lines.first?.hasSuffix(shown.series.map(\.name).joined(separator: ",")) == true, "\(chart.id)")
                    if let last = shown.labels.last, chart.unit == .count {
                        #expect(
                            lines.last
                                == Substring(
                                    ([last] + shown.series.map { String($0.values.last!) }).joined(separator: ",")),
                            "\(chart.id)")
                    }
                }
            }
        }
    }

    /// A full count on demand is for admins; a failed refresh keeps the last good figures
    /// and tells admins why, not the others.
    @Test func adminsStartAFullCountAndSeeWhyARefreshFailed() async throws {
        let panel = try await TestPanel(areas: [.dashboard, .support], users: 100)
        defer { panel.remove() }
        let support = try await panel.addStaff()
        try await panel.test { client in
            let admin = try await panel.signIn(client)
            let first = try await panel.areas.dashboard.refresher.snapshot()
            let count = try await panel.areas.dashboard.refresher.refreshCount
            let asked = Int64(Date().timeIntervalSince1970.rounded(.down))
            let refresh = try await client.postSigned("/dashboard/refresh", [("range", "90")], session: admin)
            let location = try #require(refresh.headers[.location])
            #expect(refresh.status == .seeOther && location.hasPrefix("/?range=90&refreshing="))
            let answered = Int64(Date().timeIntervalSince1970.rounded(.up))
            let started = try #require(Int64(location.dropFirst("/?range=90&refreshing=".count)))
            #expect(started >= asked && started <= answered, "stamped between the ask and its answer")
            // While the count is under way the page says so and reloads itself; once it is
            // done the page says when it counted and stops reloading.
            let following = try await client.get(
                "/?range=90&refreshing=\(Int64(Date().timeIntervalSince1970) + 240)", cookie: admin)
            #expect(
                following.text.contains("A full count is under way")
                    && following.text.contains("http-equiv=\"refresh\""))
            var waited = 0
            while try await panel.areas.dashboard.refresher.refreshCount == count, waited < 200 {
                try await Task.sleep(for: .milliseconds(50))
                waited += 1
            }
            #expect(try await panel.areas.dashboard.refresher.refreshCount == count + 1)
            let page = try await client.get(location, cookie: admin)
            #expect(page.text.contains("The full count is done") && !page.text.contains("http-equiv=\"refresh\""))
            #expect(try await client.get("/?refreshing=soon", cookie: admin).status == .badRequest)
            let ahead = try await client.get("/?refreshing=99999999999", cookie: admin)
            #expect(
                ahead.status == .badRequest && ahead.text.contains("in the future"),
                "a count asked for in the future is never followed")

            let supportCookie = try await panel.signIn(client, email: support)
            #expect(
                try await client.postSigned("/dashboard/refresh", [("range", "30")], session: supportCookie).status
                    == .forbidden)
            #expect(!(try await client.get("/", cookie: supportCookie).text.contains("Count everything again now")))

            // The test plays a backend whose table went away: the next refresh fails.
            try await DatabaseQueue(path: panel.temp.path).write { db in
                try db.execute(sql: "ALTER TABLE reminders RENAME TO reminders_gone")
            }
            try await panel.areas.dashboard.refresher.refresh(full: true)
            let failure = try #require(await panel.areas.dashboard.refresher.lastFailure)
            #expect(failure.message.contains("reminders"))
            let adminPage = try await client.get("/", cookie: admin).text
            #expect(adminPage.contains("The last refresh failed at") && adminPage.contains("no such table: reminders"))
            let supportPage = try await client.get("/", cookie: supportCookie).text
            #expect(!supportPage.contains("The last refresh failed") && !supportPage.contains("reminders_gone"))
            let kept = try await panel.areas.dashboard.refresher.snapshot()
            #expect(
                kept.countedAt >= first.countedAt && kept.totalUsers == first.totalUsers, "the last good snapshot stays"
            )
        }
    }

    @Test func twoRefreshesAtOnceAreOne() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 50)
        defer { temp.remove() }
        let refresher = DashboardRefresher(database: try await PanelDatabase.open(path: temp.path))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<5 { group.addTask { await refresher.refresh() } }
        }
        #expect(await refresher.refreshCount == 1)
        _ = try await refresher.snapshot()
        #expect(await refresher.refreshCount == 1, "a snapshot is served without another count")
    }

    @Test func anEmptyDatabaseShowsEmptyChartsAndNoRates() async throws {
        let panel = try await TestPanel(areas: [.dashboard, .support], users: 1)
        defer { panel.remove() }
        try await DatabaseQueue(path: panel.temp.path).write { db in
            for table in [
                "activity_events", "reminders", "push_receipts", "subscriptions", "devices", "documents", "food_items",
                "notification_settings", "users", "households",
            ] {
                try db.execute(sql: "DELETE FROM \(table)")
            }
        }
        try await panel.test { client in
            let page = try await client.get("/", cookie: try await panel.signIn(client)).text
            #expect(page.contains("Nothing to show for this period yet."))
            #expect(page.contains("<h3>Premium conversion</h3><div class=\"stat-line\"><p class=\"stat-value\">n/a<"))
            #expect(page.contains("No data yet"))
        }
    }

    @Test func aWholeSessionLeavesTheAppTablesAsTheyWere() async throws {
        let panel = try await TestPanel(areas: [.dashboard, .support])
        defer { panel.remove() }
        let before = try appTablesDigest(path: panel.temp.path)
        try await panel.test { client in
            _ = try await client.postLogin([("email", TestPanel.email), ("password", "wrong password!")])
            let cookie = try await panel.signIn(client)
            _ = try await client.get("/", cookie: cookie)
            _ = try await client.get("/login", cookie: cookie)
            _ = try await client.get("/no-such-page", cookie: cookie)
            _ = try await client.postSigned("/logout", session: cookie)
        }
        #expect(try appTablesDigest(path: panel.temp.path) == before)
    }

    @Test func formattingIsFixedWhateverTheLocale() {
        #expect(Format.grouped(0) == "0")
        #expect(Format.grouped(999) == "999")
        #expect(Format.grouped(1_000) == "1,000")
        #expect(Format.grouped(12_345_678) == "12,345,678")
        #expect(Format.percent(0.0789) == "7.9%")
        #expect(Format.percent(nil) == "n/a")
    }
}

@Suite(.timeLimit(.minutes(20))) struct ErrorsAndHeaders {
    @Test func everyResponseCarriesTheSecurityHeaders() async throws {
        let panel = try await TestPanel(areas: [.dashboard, .support])
        defer { panel.remove() }
        try await panel.test { client in
            let cookie = try await panel.signIn(client)
            for (uri, expectNoStore) in [
                ("/login", true), ("/", true), ("/static/css/app.css", false), ("/missing", true),
            ] {
                let response = try await client.get(uri, cookie: cookie)
                #expect(response.headers[.contentSecurityPolicy]?.contains("default-src 'self'") == true, "\(uri)")
                #expect(response.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff", "\(uri)")
                #expect(response.headers[HTTPField.Name("Referrer-Policy")!] == "same-origin", "\(uri)")
                #expect((response.headers[.cacheControl] == "no-store") == expectNoStore, "\(uri)")
                #expect(response.headers[.strictTransportSecurity] == nil, "no HSTS over plain HTTP")
            }
        }
    }

    @Test func errorPagesSayWhatHappenedAndNothingInternal() async throws {
        let panel = try await TestPanel(areas: [.dashboard, .support])
        defer { panel.remove() }
        try await panel.test { client in
            let cookie = try await panel.signIn(client)
            let missing = try await client.get("/users/%3Cscript%3E", cookie: cookie)
            #expect(missing.status == .notFound)
            #expect(missing.text.contains("There is no page at this address."))
            let wrongMethod = try await client.execute(uri: "/", method: .delete, headers: [.cookie: cookie])
            #expect(wrongMethod.status == .forbidden, "no form token: refused before routing")
            let postToPage = try await client.postSigned("/", session: cookie)
            #expect(postToPage.status == .notFound || postToPage.status == .methodNotAllowed)
            #expect(postToPage.text.contains("<h1>\(postToPage.status.code) "))
            let traversal = try await client.get("/static/../Package.swift")
            #expect(traversal.status == .notFound || traversal.status == .badRequest)
            #expect(!traversal.text.contains("PackageDescription"))
        }
    }
}

/// The dashboard's count of users active in 7 days by their last-active time and the list's
/// "Active (last 7 days)" once differed by 500 at the same minute: the list counted deleted
/// accounts. The weekly active users card now names the list's number beside its own.
@Suite(.timeLimit(.minutes(20))) struct OneDefinitionOfActive {
    @Test func theDashboardAndTheActiveListShowTheSameNumber() async throws {
        let panel = try await TestPanel(areas: [.dashboard, .support], users: 400)
        defer { panel.remove() }
        try await panel.test { client in
            let session = try await panel.signIn(client)
            let snapshot = try await panel.areas.dashboard.refresher.snapshot()
            let weekly = try #require(snapshot.headlines[.standard]?.first { $0.name == "Weekly active users" })
            let active = try #require(snapshot.usersByActivity[.active])
            let dashboard = try await client.get("/", cookie: session)
            #expect(weekly.detail.contains("count \(Format.grouped(active)) active users"))
            #expect(dashboard.text.contains("count \(Format.grouped(active)) active users"))
            for bucket in ActivityBucket.allCases {
                let list = try await client.get("/activity?bucket=\(bucket.rawValue)", cookie: session)
                let count = try #require(snapshot.usersByActivity[bucket])
                #expect(list.text.contains("\(Format.grouped(count)) users (counted at"), "\(bucket)")
            }
        }
        let deleted = try await panel.areas.database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users WHERE status = 'deleted'") ?? 0
        }
        let snapshot = try await panel.areas.dashboard.refresher.snapshot()
        #expect(
            deleted > 0 && snapshot.usersByActivity.values.reduce(0, +) == snapshot.totalUsers,
            "deleted accounts are out of every bucket")
    }
}
