@testable import AdminWeb
import AdminDomain
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TestSupport

@Suite struct DashboardPage {
    @Test func showsTheFourNumbersAsDirectSQLCountsThem() async throws {
        let panel = try await TestPanel(users: 400)
        defer { panel.remove() }
        let counts = try await DatabaseQueue(path: panel.temp.path).read { db in
            let since = SQLiteTime.string(Date().addingTimeInterval(-7 * 86_400))
            return (
                total: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users WHERE status <> 'deleted'")!,
                active: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users WHERE status <> 'deleted' AND last_active_at >= ?", arguments: [since])!,
                items: try Int.fetchOne(db, sql: "SELECT (SELECT COUNT(*) FROM food_items WHERE deleted_at IS NULL) + (SELECT COUNT(*) FROM documents WHERE deleted_at IS NULL)")!,
                premium: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users WHERE status <> 'deleted' AND plan = 'premium'")!
            )
        }
        try await panel.test { client in
            let page = try await client.get("/", cookie: try await panel.signIn(client)).text
            func card(_ label: String) -> String? {
                guard let start = page.range(of: "<h2>\(label)</h2><p class=\"stat-value\">") else { return nil }
                return String(page[start.upperBound...].prefix { $0 != "<" })
            }
            #expect(card("Total users") == Format.grouped(counts.total))
            #expect(card("Active users (7 days)") == Format.grouped(counts.active))
            #expect(card("Items tracked") == Format.grouped(counts.items))
            #expect(card("Premium conversion") == Format.percent(Double(counts.premium) / Double(counts.total)))
            #expect(page.contains("<svg viewBox=\"0 0 600 160\""))
        }
    }

    @Test func aWholeSessionLeavesTheAppTablesAsTheyWere() async throws {
        let panel = try await TestPanel()
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

@Suite struct ErrorsAndHeaders {
    @Test func everyResponseCarriesTheSecurityHeaders() async throws {
        let panel = try await TestPanel()
        defer { panel.remove() }
        try await panel.test { client in
            let cookie = try await panel.signIn(client)
            for (uri, expectNoStore) in [("/login", true), ("/", true), ("/static/css/app.css", false), ("/missing", true)] {
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
        let panel = try await TestPanel()
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

/// The dashboard's "Active users (7 days)" and the list's "Active (last 7 days)" once differed
/// by 500 at the same minute: the list counted deleted accounts.
@Suite struct OneDefinitionOfActive {
    @Test func theDashboardAndTheActiveListShowTheSameNumber() async throws {
        let panel = try await TestPanel(users: 400)
        defer { panel.remove() }
        try await panel.test { client in
            let session = try await panel.signIn(client)
            let stats = try await panel.services.stats.stats()
            let dashboard = try await client.get("/", cookie: session)
            #expect(dashboard.text.contains(Format.grouped(stats.activeUsers7Days)))
            for bucket in ActivityBucket.allCases {
                let list = try await client.get("/activity?bucket=\(bucket.rawValue)", cookie: session)
                let count = try #require(stats.usersByActivity[bucket])
                #expect(list.text.contains("\(Format.grouped(count)) users (counted at"), "\(bucket)")
            }
            #expect(stats.usersByActivity[.active] == stats.activeUsers7Days)
        }
        let deleted = try await panel.services.database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users WHERE status = 'deleted'") ?? 0
        }
        let stats = try await panel.services.stats.stats()
        #expect(deleted > 0 && stats.usersByActivity.values.reduce(0, +) == stats.totalUsers, "deleted accounts are out of every bucket")
    }
}
