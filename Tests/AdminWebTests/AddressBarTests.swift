import AdminDomain
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import AdminWeb

/// Issue 46, findings 7 and 10: addresses that behaved oddly. A refused add left an address
/// that answered 404 on reload; a language the preview does not have, and a control character
/// in the audit filter, were passed over without a word; Back showed a cached confirmation; a
/// list and its CSV did not say when they were counted; an encoded NUL cut a static path.
@Suite(.timeLimit(.minutes(20))) struct AddressBar {
    /// The page's error sentence, as shown.
    static func problem(_ page: String) -> String? {
        page.firstMatch(of: /class="notice error" role="alert">([^<]*)</)?.output.1.description
    }

    /// 7a: after a refused add the address bar shows /admins/create; opened again (a reload, or
    /// Enter in the address bar) it leads to the staff page, never to a 404.
    @Test func theAddFormsAddressLeadsToTheStaffPage() async throws {
        let panel = try await TestPanel(areas: [.dashboard])
        defer { panel.remove() }
        try await panel.test { client in
            let admin = try await panel.signIn(client)
            let refused = try await client.postSigned(
                "/admins/create", [("email", "not an email"), ("role", "support")], session: admin)
            #expect(refused.status == .badRequest && refused.text.contains("value=\"not an email\""))
            let again = try await client.get("/admins/create", cookie: admin)
            #expect(again.status == .seeOther, "\(again.status)")
            #expect(again.headers[.location] == "/admins")
            let support = try await panel.signIn(client, email: try await panel.addStaff())
            #expect(try await client.get("/admins/create", cookie: support).status == .forbidden, "admins only")
        }
    }

    /// 7b: a launched campaign's page has no message preview; `?language=pt` there was taken
    /// and the page shown as if nothing had been asked.
    @Test func aLanguageThePageCannotShowIsRefusedWithASentence() async throws {
        let panel = try await TestPanel(areas: [.campaigns])
        defer { panel.remove() }
        let campaigns = try panel.areas.campaigns.campaigns
        let draft = try await campaigns.create(CampaignDraft(title: "t", body: "b"), by: .commandLine)
        let launched = try await campaigns.create(CampaignDraft(title: "t", body: "b"), by: .commandLine)
        try await campaigns.beginAndFreeze(
            launched, schedule: .at(Date().addingTimeInterval(86_400)), by: .commandLine)
        try await panel.test { client in
            let cookie = try await panel.signIn(client)
            let onDraft = try await client.get("/campaigns/\(draft)?language=pt", cookie: cookie)
            #expect(onDraft.status == .badRequest && onDraft.text.contains("There is no language “pt”"))
            for query in ["language=pt", "variant=B", "platform=android", "sample=1"] {
                let page = try await client.get("/campaigns/\(launched)?\(query)", cookie: cookie)
                #expect(page.status == .badRequest, "\(query): \(page.status)")
                #expect(Self.problem(page.text)?.contains("no message preview") == true, "\(query)")
            }
            #expect(try await client.get("/campaigns/\(launched)", cookie: cookie).status == .ok)
        }
    }

    /// 7c: a control character in the audit filter's "Who" was turned into a space and the
    /// list filtered by something else than was typed.
    @Test(arguments: ["actor=mallory%01%40example.com", "target=user%3A1%00", "actor=a%C2%85b"])
    func aControlCharacterInTheAuditFilterIsRefusedWithASentence(query: String) async throws {
        let panel = try await TestPanel(areas: [.dashboard])
        defer { panel.remove() }
        try await panel.test { client in
            let session = try await panel.signIn(client)
            for path in ["/audit", "/audit.csv"] {
                let page = try await client.get("\(path)?\(query)", cookie: session)
                #expect(page.status == .badRequest, "\(path)?\(query)")
                #expect(Self.problem(page.text)?.contains("holds a control character") == true, "\(path)?\(query)")
            }
        }
    }

    /// 7d: every page with a form token, and the confirmation before a launch, is never kept:
    /// Back asks the server again.
    @Test func pagesCarryingAFormTokenAreNeverCached() async throws {
        let panel = try await TestPanel(areas: [.campaigns])
        defer { panel.remove() }
        let id = try await panel.areas.campaigns.campaigns.create(
            CampaignDraft(title: "t", body: "b"), by: .commandLine)
        try await panel.test { client in
            let login = try await client.get("/login")
            #expect(login.headers[.cacheControl] == "no-store", "/login")
            let cookie = try await panel.signIn(client)
            for path in [
                "/campaigns/\(id)/confirm", "/campaigns/\(id)", "/campaigns/new", "/admins", "/account/password",
                "/admins/1/disable", "/campaigns/\(id)/cancel",
            ] {
                let page = try await client.get(path, cookie: cookie)
                #expect(page.headers[.cacheControl] == "no-store", "\(path): \(page.status)")
            }
            let posted = try await client.postSigned(
                "/admins/create", [("email", "x"), ("role", "support")], session: cookie)
            #expect(posted.headers[.cacheControl] == "no-store", "a form shown again")
        }
    }

    /// 7f: an activity list's size and its CSV each say when they were made.
    @Test func aListAndItsCSVSayAsOfWhen() async throws {
        let panel = try await TestPanel(areas: [.support])
        defer { panel.remove() }
        try await panel.test { client in
            let session = try await panel.signIn(client, email: try await panel.addStaff())
            let before = Date().addingTimeInterval(-1)
            let list = try await client.get("/activity?bucket=never&plan=free", cookie: session)
            let csv = try await client.get("/activity.csv?bucket=never&plan=free", cookie: session)
            let after = Date().addingTimeInterval(1)
            #expect(list.status == .ok && csv.status == .ok)
            let shown = try #require(
                list.text.firstMatch(of: /class="list-size">[^<]*, as of (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) UTC/)?
                    .output.1)
            let listTime = try #require(SQLiteTime.date(String(shown)))
            #expect(listTime >= before && listTime <= after, "\(shown)")
            let disposition = try #require(csv.headers[.contentDisposition])
            let stamp = try #require(disposition.firstMatch(of: /-as-of-(\d{8})t(\d{6})z\.csv"$/)?.output)
            let parts = (String(stamp.1), String(stamp.2))
            let formatted =
                "\(parts.0.prefix(4))-\(parts.0.dropFirst(4).prefix(2))-\(parts.0.suffix(2)) "
                + "\(parts.1.prefix(2)):\(parts.1.dropFirst(2).prefix(2)):\(parts.1.suffix(2))"
            let csvTime = try #require(SQLiteTime.date(formatted))
            #expect(csvTime >= before && csvTime <= after, "\(disposition)")
        }
    }

    /// 10: `GET /static/css/app.css%00.js` answered 200 with the CSS as JavaScript. A control
    /// character anywhere in a path is refused with a sentence, on every route.
    @Test(arguments: [
        "/static/css/app.css%00.js", "/static/css/app.css%0a", "/login%00", "/health%7F", "/users/1%00",
        "/static/css/%C2%9Fapp.css", "/no-such-page%1B",
    ])
    func aControlCharacterInAPathIsRefusedWithASentence(path: String) async throws {
        let panel = try await TestPanel(areas: [.support])
        defer { panel.remove() }
        try await panel.test { client in
            let session = try await panel.signIn(client)
            let answer = try await client.get(path, cookie: session)
            #expect(answer.status == .badRequest, "\(path): \(answer.status)")
            #expect(answer.text.contains("control character"), "\(path)")
            #expect(answer.headers[.contentType]?.hasPrefix("text/html") == true, "\(path)")
        }
    }

    @Test func aStaticFileIsStillServed() async throws {
        let panel = try await TestPanel(areas: [])
        defer { panel.remove() }
        try await panel.test { client in
            let css = try await client.get("/static/css/app.css")
            #expect(css.status == .ok && css.headers[.contentType]?.hasPrefix("text/css") == true)
        }
    }
}
