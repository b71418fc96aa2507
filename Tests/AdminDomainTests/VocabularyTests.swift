import Foundation
import GRDB
import TestSupport
import Testing

@testable import AdminDomain

@Suite(.timeLimit(.minutes(20))) struct Vocabulary {
    @Test func everyTermRoundTripsThroughTheDatabase() async throws {
        let queue = try DatabaseQueue()
        let (plans, platforms, permission) = try await queue.read { db throws in
            (
                try Plan.allCases.map { try Plan.fetchOne(db, sql: "SELECT ?", arguments: [$0]) },
                try Platform.allCases.map { try Stored<Platform>.fetchOne(db, sql: "SELECT ?", arguments: [$0]) },
                try Stored<PushPermission>.fetchOne(db, sql: "SELECT 'unknown'")
            )
        }
        #expect(plans == Plan.allCases)
        #expect(platforms == Platform.allCases.map(Stored.known))
        #expect(permission == .known(.unknown), "the app's own word 'unknown' is a term, not an unknown value")
    }

    @Test func valuesTheEnumsDoNotKnowReadAsUnknownAndNeverFail() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 5)
        defer { temp.remove() }
        try UnknownVocabulary.insertUser(path: temp.path)
        let database = try await PanelDatabase.open(path: temp.path)
        let profile = try #require(try await UserProfile.load(id: UnknownVocabulary.userID, database: database))
        #expect(
            profile.account.plan == .unknown("platinum") && profile.account.plan.description == "unknown (platinum)")
        #expect(profile.account.status == .unknown("banned"))
        #expect(
            Set(profile.devices.map(\.platform)) == [.unknown("harmonyos"), .unknown("7")],
            "a number where text belongs too")
        let odd = try #require(profile.devices.first { $0.platform == .unknown("harmonyos") })
        #expect(odd.pushProvider == .unknown("hms") && odd.pushPermission == .unknown("provisional"))
        #expect(profile.subscriptions.map(\.status) == [.unknown("paused")])
        #expect(!profile.hasActiveSubscriptionOnFreePlan)
        #expect(profile.recentReminders.map(\.itemKind) == [.unknown("pet")])
        #expect(profile.recentReminders.map(\.status) == [.unknown("snoozed")])
        #expect(profile.recentActivity.map(\.platform) == [.unknown("web")])
        let summary = try #require(try await UserDirectory(database: database).summary(id: UnknownVocabulary.userID))
        #expect(summary.plan.storedText == "platinum" && summary.status.description == "unknown (banned)")
        // A list that holds the user: it is listed, and a filter on a known plan leaves it out.
        let lists = ActivityLists(database: database)
        let never = try await lists.page(ActivityListQuery(UserFilter(bucket: .never)), after: nil)
        #expect(never.users.contains { $0.id == UnknownVocabulary.userID })
        let free = try await lists.page(ActivityListQuery(UserFilter(bucket: .never, plan: .free)), after: nil)
        #expect(!free.users.contains { $0.id == UnknownVocabulary.userID })
    }

    @Test func daysAreRealCalendarDays() {
        #expect(Day("2026-02-28")?.text == "2026-02-28")
        #expect(Day("2024-02-29") != nil)
        for text in ["2026-02-29", "2026-02-30", "2026-13-01", "2026-1-01", "26-01-01", "2026-01-01 ", "", "yesterday"]
        {
            #expect(Day(text) == nil, "\(text)")
        }
    }
}

/// Each term type's words are exactly those its column's CHECK allows, read off a migrated file.
@Suite(.timeLimit(.minutes(20))) struct TermsAreTheTablesChecks {
    /// The words of `CHECK (column IN ('a', 'b'))` in `table`'s stored `CREATE` statement.
    static func allowed(in table: String, column: String) async throws -> Set<String> {
        let temp = try await TemporaryDatabase.seeded(users: 5)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        let made = try await database.read { db in
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = ?", arguments: [table])
        }
        let pattern = try Regex("CHECK \\(\(column) IN \\(([^)]*)\\)\\)")
        let check = try #require(made?.firstMatch(of: pattern)?.output[1].substring)
        return Set(check.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " '")) })
    }

    @Test func campaignKinds() async throws {
        #expect(
            try await Self.allowed(in: "panel_campaigns", column: "kind") == Set(CampaignKind.allCases.map(\.rawValue)))
    }

    @Test func journeyEntryStates() async throws {
        #expect(
            try await Self.allowed(in: "panel_journey_entries", column: "state")
                == Set(JourneyEntryState.allCases.map(\.rawValue)))
    }
}
