import AdminDomain
import Foundation
import GRDB
import TestSupport
import Testing

/// Issue 34, point 8: `admin-panel journeys list` and `journeys pause`, the binary run on a
/// seeded database whose journeys are made by the domain, as the pages make them.
@Suite(.timeLimit(.minutes(20))) struct JourneysCommandTests {
    struct Setup {
        let temp: TemporaryDatabase
        let active: Int64
        let draft: Int64
    }

    static func setup() async throws -> Setup {
        let temp = try await TemporaryDatabase.seeded(users: 20)
        let journeys = Journeys(database: try await PanelDatabase.open(path: temp.path))
        let active = try await journeys.create(
            JourneyDraft(
                campaign: CampaignDraft(title: "We miss you", body: "b", name: "Win-back <b>30</b>"),
                rules: JourneyRules(trigger: .inactiveDays(30))), by: .commandLine)
        try await journeys.activate(active, by: .commandLine)
        let draft = try await journeys.create(
            JourneyDraft(
                campaign: CampaignDraft(title: "Add your first items", body: "b"),
                rules: JourneyRules(trigger: .firstDays(2, fewerItems: 3))), by: .commandLine)
        // Running totals as the service and the dispatcher keep them.
        try await DatabaseQueue(path: temp.path).write { db in
            try db.execute(
                sql: "UPDATE panel_journeys SET entered_count = 7 WHERE campaign_id = ?", arguments: [active])
            try db.execute(sql: "UPDATE panel_campaigns SET accepted_count = 4 WHERE id = ?", arguments: [active])
        }
        return Setup(temp: temp, active: active, draft: draft)
    }

    /// A name holding a right-to-left override or a tab reaches the terminal as U+FFFD: it
    /// can neither reorder the line nor shift the columns.
    @Test func listShowsControlAndFormatCharactersOfANameAsReplacements() async throws {
        let setup = try await Self.setup()
        defer { setup.temp.remove() }
        try await DatabaseQueue(path: setup.temp.path).write { db in
            try db.execute(
                sql: "UPDATE panel_campaigns SET name = ? WHERE id = ?",
                arguments: ["a\u{202E}gnp.exe\tb", setup.draft])
        }
        let result = try await runPanel(["journeys", "list", "--db", setup.temp.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\(setup.draft)\ta\u{FFFD}gnp.exe\u{FFFD}b\tsigned up"))
        #expect(!result.stdout.contains("\u{202E}"))
    }

    @Test func listShowsEachJourneyWithItsTriggerInWordsStatusEnteredAndSent() async throws {
        let setup = try await Self.setup()
        defer { setup.temp.remove() }
        let result = try await runPanel(["journeys", "list", "--db", setup.temp.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(
            result.stdout == """
                id\tname\ttrigger\tstatus\tentered\taccepted
                \(setup.draft)\tAdd your first items\tsigned up 2 days ago with fewer than 3 items\tdraft\t0\t0
                \(setup.active)\tWin-back <b>30</b>\thas not opened the app for 30 days\tactive\t7\t4

                """)
    }

    @Test func pauseMovesAnActiveJourneyWithItsAuditRowAsTheCommandLine() async throws {
        let setup = try await Self.setup()
        defer { setup.temp.remove() }
        let result = try await runPanel(["journeys", "pause", "--db", setup.temp.path, "--id", "\(setup.active)"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("paused journey #\(setup.active) “Win-back <b>30</b>”"), "\(result.stdout)")
        let (status, audit) = try DatabaseQueue(path: setup.temp.path).read { db in
            (
                try String.fetchOne(
                    db, sql: "SELECT status FROM panel_campaigns WHERE id = ?", arguments: [setup.active]),
                try Row.fetchAll(
                    db,
                    sql:
                        """
                        SELECT actor_email, admin_id, action, target, detail FROM panel_audit_log WHERE action = \
                        'journey_paused'
                        """
                )
            )
        }
        #expect(status == "paused")
        #expect(audit.count == 1)
        #expect(audit.first?["actor_email"] == "cli" && audit.first?["admin_id"] == nil as Int64?)
        #expect(audit.first?["target"] == "journey:\(setup.active)" && audit.first?["detail"] == "was active")
    }

    @Test(arguments: ["unknown", "draft", "paused"])
    func pausingWhatCannotBePausedSaysWhyAndExitsNonZero(_ kind: String) async throws {
        let setup = try await Self.setup()
        defer { setup.temp.remove() }
        var id = setup.draft
        var expected = "error: journey #\(setup.draft) is draft: only an active journey can be paused\n"
        if kind == "unknown" {
            id = 999_999
            expected = "error: there is no journey #999999\n"
        } else if kind == "paused" {
            id = setup.active
            #expect(try await runPanel(["journeys", "pause", "--db", setup.temp.path, "--id", "\(id)"]).status == 0)
            expected = "error: journey #\(id) is paused: only an active journey can be paused\n"
        }
        let auditBefore = try await Self.auditCount(setup.temp.path)
        let result = try await runPanel(["journeys", "pause", "--db", setup.temp.path, "--id", "\(id)"])
        #expect(result.status == 1)
        #expect(result.stderr == expected)
        #expect(result.stdout.isEmpty)
        #expect(try await Self.auditCount(setup.temp.path) == auditBefore, "nothing recorded")
    }

    @Test func aMissingDatabaseIsOneLine() async throws {
        let result = try await runPanel(["journeys", "list", "--db", "/nonexistent/panel.sqlite"])
        #expect(result.status == 1)
        #expect(
            result.stderr.hasPrefix("error: ") && result.stderr.contains("database not found")
                && result.stderr.split(separator: "\n").count == 1,
            "\(result.stderr)")
    }

    static func auditCount(_ path: String) async throws -> Int {
        try await DatabaseQueue(path: path).read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM panel_audit_log") ?? 0
        }
    }
}
