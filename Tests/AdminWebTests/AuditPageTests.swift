@testable import AdminWeb
import AdminDomain
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TestSupport

@Suite struct AuditLogPage {
    private func panelWithEntries(_ count: Int) async throws -> TestPanel {
        let panel = try await TestPanel()
        for index in 0..<count {
            try await panel.services.signIn.audit.append(AuditEntry(
                actor: nil, actorEmail: index % 3 == 0 ? "mallory@example.com" : "eve@example.com", clientAddress: "10.0.0.\(index % 7)",
                action: index % 2 == 0 ? .signInFailed : .forbidden,
                target: index == 5 ? "<script>alert(1)</script>" : "admin:\(index)",
                detail: index == 6 ? "=HYPERLINK(\"http://evil\"), \"quoted\"" : nil))
        }
        return panel
    }

    @Test func pagesGoBackThroughEveryEntryOnceNewestFirst() async throws {
        let panel = try await panelWithEntries(120)
        defer { panel.remove() }
        let expected = try await panel.services.database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM panel_audit_log")!
        }
        try await panel.test { client in
            let session = try await panel.signIn(client)
            var uri = "/audit"
            var seen: [String] = []
            var pages = 0
            while true {
                let page = try await client.get(uri, cookie: session)
                #expect(page.status == .ok)
                // Each body row's cells: when, who, from, action, target, detail.
                for row in page.text.components(separatedBy: "<tr>").dropFirst(2) {
                    let cells = row.matches(of: /<td[^>]*>(?:<bdi[^>]*>)?([^<]*)/).map { String($0.1) }
                    if cells.count >= 5 { seen.append("\(cells[1])|\(cells[3])|\(cells[4])") }
                }
                pages += 1
                guard let next = page.text.firstMatch(of: /<a href="([^"]+)">Older entries<\/a>/) else { break }
                uri = String(next.1).replacingOccurrences(of: "&amp;", with: "&")
            }
            // The sign-in above added one row before the first page was read.
            #expect(seen.count == expected + 1)
            #expect(pages == 3)
            #expect(Set(seen.filter { $0.contains("admin:") }).count == seen.filter { $0.contains("admin:") }.count, "no duplicates")
        }
    }

    @Test func filtersNarrowTheListAndBadInputIsExplained() async throws {
        let panel = try await panelWithEntries(30)
        defer { panel.remove() }
        try await panel.test { client in
            let session = try await panel.signIn(client)
            let filtered = try await client.get("/audit?action=forbidden&actor=MALLORY@example.com", cookie: session)
            #expect(filtered.status == .ok)
            #expect(filtered.text.contains("5 entries on this page"), "indexes 3, 9, 15, 21, 27")
            #expect(filtered.text.contains("<option value=\"forbidden\" selected>"))
            let hostile = try await client.get("/audit?target=%3Cscript%3Ealert(1)%3C/script%3E", cookie: session)
            #expect(hostile.text.contains("1 entry on this page"))
            #expect(!hostile.text.contains("<script>alert(1)"))
            for bad in ["/audit?from=2026-13-01", "/audit?to=yesterday", "/audit?action=%3Cb%3Edrop%3C/b%3E"] {
                let response = try await client.get(bad, cookie: session)
                #expect(response.status == .badRequest, "\(bad)")
                #expect(response.text.contains("notice error"))
                #expect(!response.text.contains("<b>drop"))
            }
            let days = try await client.get("/audit?from=2000-01-01&to=2000-01-02", cookie: session)
            #expect(days.text.contains("No entries match."))
        }
    }

    @Test func theCSVHasEveryMatchingRowQuotedAndDefusedAndIsAudited() async throws {
        let panel = try await panelWithEntries(10)
        defer { panel.remove() }
        try await panel.test { client in
            let session = try await panel.signIn(client)
            let csv = try await client.get("/audit.csv?action=sign_in_failed", cookie: session)
            #expect(csv.status == .ok)
            #expect(csv.headers[.contentType] == "text/csv; charset=utf-8")
            let lines = csv.text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
            #expect(lines.first == "\u{FEFF}id,at,actor_email,client_address,action,target,detail", "UTF-8 for spreadsheets")
            #expect(csv.headers[.contentDisposition] == "attachment; filename=\"audit-log-sign-in-failed.csv\"")
            #expect(lines.count == 1 + 5, "entries 0, 2, 4, 6, 8")
            #expect(lines.contains { $0.hasSuffix(",\"'=HYPERLINK(\"\"http://evil\"\"), \"\"quoted\"\"\"") })
            #expect(lines.dropFirst().allSatisfy { $0.contains(",sign_in_failed,") })
        }
        let exported = try await panel.services.database.read { db in
            try String.fetchAll(db, sql: "SELECT detail FROM panel_audit_log WHERE action = 'audit_exported'")
        }
        #expect(exported == ["action=sign_in_failed"])
    }

    @Test func onlyRolesThatMayReadItSeeItInTheNavigation() async throws {
        let panel = try await TestPanel()
        defer { panel.remove() }
        try await panel.services.admins.create(email: "help@example.com", password: TestPanel.password, role: .support)
        try await panel.test { client in
            #expect(try await client.get("/", cookie: try await panel.signIn(client)).text.contains(">Audit log</a>"))
            let support = try await panel.signIn(client, email: "help@example.com")
            #expect(!(try await client.get("/", cookie: support).text.contains("Audit log")))
            #expect(try await client.get("/audit", cookie: support).status == .forbidden)
        }
    }

    @Test func csvCells() {
        #expect(CSV.line(["a", "b,c", "say \"hi\"", "-1", "@x", "line\nbreak"])
            == "a,\"b,c\",\"say \"\"hi\"\"\",'-1,'@x,\"line\nbreak\"\r\n")
    }
}
