import PushTemplates
import Testing

@testable import AdminDomain
@testable import AdminWeb

/// The journey form read without HTTP: the rules from their fields, every problem a
/// sentence, unknown values refused rather than replaced.
@Suite(.timeLimit(.minutes(20))) struct JourneyForms {
    static let base = [
        "title": "Hi", "body": "There", "ttl": "86400", "trigger": "inactive_days", "trigger_days": "30",
        "send_at": "daily_time",
    ]

    static func read(_ changes: [String: String?]) -> (draft: JourneyDraft?, problems: [String]) {
        let read = JourneyForm(fields: base).with(changes).read(templates: PushTemplateLibrary())
        return (read.draft, read.problems)
    }

    @Test func eachTriggerAndSendingTimeReadsIntoItsRules() throws {
        let winBack = try #require(Self.read([:]).draft)
        #expect(winBack.rules == JourneyRules(trigger: .inactiveDays(30), sendAt: .dailyTime))
        let firstDays = try #require(
            Self.read([
                "trigger": "first_days", "trigger_days": "2", "fewer_items": "3", "send_at": "window",
                "window_from": "18", "window_to": "6", "reentry_days": "30", "daily_limit": "500",
            ]).draft)
        #expect(
            firstDays.rules
                == JourneyRules(
                    trigger: .firstDays(2, fewerItems: 3), sendAt: .window(from: 18, to: 6), reentryDays: 30,
                    dailyLimit: 500))
        let ending = try #require(
            Self.read([
                "trigger": "subscription_ending", "trigger_days": "3", "holdout_percent": "20", "goal": "upgraded",
            ]).draft)
        #expect(ending.rules.trigger == .subscriptionEnding(3) && ending.campaign.experiment.holdoutPercent == 20)
        #expect(
            ending.campaign.schedule == .now && ending.campaign.experiment.testPercent == nil,
            "no schedule nor winner test")
    }

    @Test func unknownAndOutOfRangeValuesAreRefusedEachWithASentence() {
        let cases: [([String: String?], String)] = [
            (["trigger": "birthday"], "There is no trigger “birthday”"),
            (["trigger": nil], "Choose a trigger."),
            (["trigger_days": "6"], "Inactive days must be from 7 to 180: “6” is not."),
            (["trigger_days": "thirty"], "The trigger's number of days must be a whole number"),
            (
                ["trigger": "first_days", "trigger_days": "2"],
                "Give the number of items (1–50) a new user has fewer than."
            ),
            (
                ["trigger": "first_days", "trigger_days": "2", "fewer_items": "51"],
                "Fewer items must be from 1 to 50: “51” is not."
            ),
            (
                ["trigger": "subscription_ending", "trigger_days": "15"],
                "Days before a subscription ends must be from 1 to 14"
            ),
            (["send_at": "whenever"], "There is no sending time “whenever”"),
            (
                ["send_at": "window", "window_from": "9", "window_to": "9"],
                "A sending window must not start and end at the same hour."
            ),
            (["send_at": "window", "window_from": "9"], "Give the window's hours, from 0 to 23."),
            (
                ["send_at": "window", "window_from": "9", "window_to": "24"],
                "A sending window's hours must be from 0 to 23."
            ),
            (["reentry_days": "0"], "Re-entry must be empty (never) or from 1 to 365 days"),
            (["daily_limit": "-1"], "The daily limit must be empty (none) or from 1 to 1,000,000"),
            (["holdout_percent": "60", "goal": "item_added"], "holdout"),
            (["platform": "windows"], "There is no platform “windows”"),
            (["title": nil], "Write a title, or choose a template."),
        ]
        for (changes, sentence) in cases {
            let result = Self.read(changes)
            #expect(result.draft == nil, "\(changes)")
            #expect(result.problems.contains { $0.contains(sentence) }, "\(changes): \(result.problems)")
        }
    }

    @Test func aStoredJourneyComesBackAsTheFieldsThatMadeIt() throws {
        let fields = Self.base.merging([
            "trigger": "first_days", "trigger_days": "2", "fewer_items": "3", "send_at": "window", "window_from": "18",
            "window_to": "21", "reentry_days": "30", "daily_limit": "500", "name": "New users",
        ]) { $1 }
        let draft = try #require(JourneyForm(fields: fields).read(templates: PushTemplateLibrary()).draft)
        let record = JourneyRecord(
            campaign: SnapshotsCampaignParts.campaign(1, .known(.draft), name: "New users", schedule: .now),
            rules: draft.rules,
            entered: 0, evaluatedUntil: nil)
        let back = JourneyForm(journey: record)
        for name in JourneyForm.ruleFields { #expect(back[name] == fields[name] ?? "", "\(name)") }
        #expect(back["name"] == "New users" && back["when"] == "", "no composer-only field")
    }
}
