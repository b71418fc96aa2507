import Foundation
import GRDB
import TestSupport
import Testing

@testable import AdminDomain

/// Issue 32, finding 6, in the domain: behind the web form's check, a campaign draft and a
/// staff email holding a control character are refused, so a caller other than the web
/// (the CLI) cannot store a text SQLite cuts at its NUL.
@Suite(.timeLimit(.minutes(20))) struct DomainRefusesControlCharacters {
    @Test func whatCountsAsAControlCharacter() {
        for (text, expected) in [
            ("a\u{0}b", "U+0000"), ("a\u{1}", "U+0001"), ("\u{1B}[2J", "U+001B"), ("a\u{7F}", "U+007F"),
            ("a\u{85}", "U+0085"), ("a\u{9F}", "U+009F"), ("a\tb", "U+0009"), ("a\nb", "U+000A"), ("a\r\nb", "U+000D"),
        ] {
            #expect(
                TypedText.controlCharacter(in: text).map(TypedText.codePoint) == expected,
                "\(text.unicodeScalars.map(\.value))")
        }
        // In a text area: tabs, line feeds and CRLF pairs are text; a CR alone is not.
        for text in ["a\tb", "a\nb", "a\r\nb\r\n", "plain", "é 😀 \u{202E}x\u{200B}", "\u{A0}\u{A0}"] {
            #expect(TypedText.controlCharacter(in: text, multiLine: true) == nil, "\(text.unicodeScalars.map(\.value))")
        }
        for text in ["a\rb", "a\r", "\r\r\n", "a\u{0}\n"] {
            #expect(TypedText.controlCharacter(in: text, multiLine: true) != nil, "\(text.unicodeScalars.map(\.value))")
        }
        #expect(
            TypedText.controlCharacter(in: "é 😀 \u{202E}", multiLine: false) == nil,
            "format characters are shown, not refused")
    }

    @Test func aDraftOrAStaffEmailWithOneIsRefusedAndNothingIsStored() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 5)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        let campaigns = Campaigns(database: database)
        let variant = VariantMessage(variant: .b, title: "B", body: "B\u{0}cut", template: nil)
        for draft in [
            CampaignDraft(title: "a\u{0}b", body: "b"), CampaignDraft(title: "t", body: "b\u{7F}"),
            CampaignDraft(title: "t", body: "b", name: "n\u{85}"),
            CampaignDraft(title: "t", body: "b", experiment: CampaignExperiment(variants: [variant])),
        ] {
            await #expect(throws: CampaignError.self) { try await campaigns.create(draft, by: .commandLine) }
        }
        let id = try await campaigns.create(CampaignDraft(title: "t", body: "line\r\none\ttab"), by: .commandLine)
        await #expect(throws: CampaignError.self) {
            try await campaigns.edit(id, to: CampaignDraft(title: "t\u{0}x", body: "b"), by: .commandLine)
        }
        let staff = StaffAdministration(database: database, hasher: PasswordHasher(parameters: fastScryptForTests))
        await #expect(throws: AdminStoreError.invalidEmail) {
            try await staff.create(
                email: "new.person@corp.test\u{0}<b>x</b>", password: "a long enough password", role: .support,
                oneTime: true, by: .commandLine)
        }
        let stored = try await database.read { db in
            (
                try String.fetchAll(db, sql: "SELECT title || '|' || body FROM panel_campaigns"),
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM panel_admins") ?? -1,
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM panel_audit_log WHERE action IN ('campaign_edited', 'admin_created')"
                ) ?? -1
            )
        }
        #expect(stored.0 == ["t|line\r\none\ttab"], "only the clean draft, unedited")
        #expect(stored.1 == 0 && stored.2 == 0, "no account, no audit row")
    }
}
