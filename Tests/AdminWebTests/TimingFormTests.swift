import Foundation
import PushTemplates
import Testing

@testable import AdminDomain
@testable import AdminWeb

/// The composer's and the journey form's timing fields read without HTTP: each user's usual
/// hour with its control share, every refusal a sentence shown beside the fields, and a
/// stored timing back as the fields that made it.
@Suite(.timeLimit(.minutes(20))) struct TimingForms {
    static let base = ["title": "Hi", "body": "There", "ttl": "86400", "when": "now"]

    static func read(_ changes: [String: String?]) -> ComposerForm.Result {
        ComposerForm(fields: base).with(changes).read(templates: PushTemplateLibrary(), now: Date())
    }

    @Test func usualHourReadsWithItsControlShareAndTheDefaultWhenEmpty() throws {
        #expect(try #require(Self.read([:]).draft).timing == .asScheduled, "no timing field: as scheduled, as before")
        #expect(try #require(Self.read(["timing": "scheduled"]).draft).timing == .asScheduled)
        #expect(try #require(Self.read(["timing": "usual_hour"]).draft).timing == .usualHour(controlPercent: 10))
        #expect(
            try #require(Self.read(["timing": "usual_hour", "timing_control_percent": "0"]).draft).timing
                == .usualHour(controlPercent: 0))
        #expect(
            try #require(Self.read(["timing": "usual_hour", "timing_control_percent": "50"]).draft).timing
                == .usualHour(controlPercent: 50))
    }

    @Test func anUnknownTimingABadShareAndABadCombinationAreRefusedWithTheirSentence() {
        let cases: [([String: String?], String)] = [
            (["timing": "whenever"], "There is no timing “whenever”: choose one of scheduled, usual_hour."),
            (
                ["timing": "usual_hour", "timing_control_percent": "51"],
                "The timing control share (%) must be a whole number from 0 to 50."
            ),
            (
                ["timing": "usual_hour", "timing_control_percent": "ten"],
                "The timing control share (%) must be a whole number from 0 to 50."
            ),
            (
                ["timing": "usual_hour", "timing_control_percent": "-1"],
                "The timing control share (%) must be a whole number from 0 to 50."
            ),
            // Not silently dropped when the timing is as scheduled either.
            (
                ["timing": "scheduled", "timing_control_percent": "90"],
                "The timing control share (%) must be a whole number from 0 to 50."
            ),
            (
                ["timing": "usual_hour", "when": "local", "local_time": "09:00"],
                "Choose either one local time of day for everyone or each user's usual hour, not both."
            ),
            (
                ["timing": "usual_hour", "title_b": "B", "body_b": "b", "test_percent": "20"],
                "Each user's usual hour cannot be combined with a winner test: the rest would wait for the winner, "
                    + "not for their hour."
            ),
        ]
        for (changes, sentence) in cases {
            let result = Self.read(changes)
            #expect(result.draft == nil, "\(changes)")
            #expect(result.problems.contains(sentence), "\(changes): \(result.problems)")
            #expect(
                result.problems.filter(ComposerForm.isTimingProblem).contains(sentence),
                "shown beside the timing fields: \(sentence)")
        }
        // A local time with the fixed timing, and variants without a test share, are fine.
        #expect(Self.read(["when": "local", "local_time": "09:00"]).draft != nil)
        #expect(
            Self.read(["timing": "usual_hour", "title_b": "B", "body_b": "b"]).draft?.timing
                == .usualHour(controlPercent: 10))
    }

    @Test func theTimingFieldsetShowsItsRefusalAndKeepsWhatWasTyped() {
        let form = ComposerForm(fields: Self.base).with(["timing": "usual_hour", "timing_control_percent": "77"])
        let problems = form.read(templates: PushTemplateLibrary(), now: Date()).problems
        let html = PageSnapshots.page(
            ComposerView(
                model: ComposerModel(
                    form: form, problems: problems, library: PushTemplateLibrary(), templateProblem: nil),
                viewer: SnapshotsCampaignParts.viewer))
        let fieldset =
            html.components(separatedBy: "id=\"timing-fields\"").dropFirst().first?.components(
                separatedBy: "</fieldset>"
            ).first ?? ""
        #expect(
            fieldset.contains("id=\"timing-problem\"")
                && fieldset.contains("The timing control share (%) must be a whole number from 0 to 50."))
        #expect(fieldset.contains("value=\"77\""), "what was typed is shown again")
        #expect(fieldset.contains("<option value=\"usual_hour\" selected>"), "the choice is kept")
        #expect(
            fieldset.contains("Control share (%)")
                && fieldset.contains("control share is sent at the campaign's fixed time"))
    }

    @Test func aStoredTimingComesBackThroughEditAndAnUnknownOneIsNeverReplaced() throws {
        let draft = try #require(Self.read(["timing": "usual_hour", "timing_control_percent": "25"]).draft)
        var record = SnapshotsCampaignParts.campaign(1, .known(.draft), schedule: .now)
        record.timing = draft.timing
        // The hand-made campaign's deep link is no screen the form offers: left out here.
        var back = ComposerForm(campaign: record)
        back.fields["deep_link"] = nil
        #expect(back["timing"] == "usual_hour" && back["timing_control_percent"] == "25")
        #expect(
            try #require(back.read(templates: PushTemplateLibrary(), now: Date()).draft).timing
                == .usualHour(controlPercent: 25))
        record.timing = .asScheduled
        var scheduled = ComposerForm(campaign: record)
        scheduled.fields["deep_link"] = nil
        #expect(
            try #require(scheduled.read(templates: PushTemplateLibrary(), now: Date()).draft).timing == .asScheduled)
        // A value a newer panel stored: saving the edit must not turn it into another.
        record.timing = nil
        let unknown = ComposerForm(campaign: record).read(templates: PushTemplateLibrary(), now: Date())
        #expect(unknown.draft == nil && unknown.problems.contains { $0.hasPrefix("There is no timing") })
    }

    @Test func aJourneyReadsAndKeepsItsTimingTheSameWay() throws {
        let fields = [
            "title": "Hi", "body": "There", "ttl": "86400", "trigger": "inactive_days", "trigger_days": "30",
            "send_at": "daily_time",
            "timing": "usual_hour", "timing_control_percent": "30",
        ]
        let draft = try #require(JourneyForm(fields: fields).read(templates: PushTemplateLibrary()).draft)
        #expect(draft.campaign.timing == .usualHour(controlPercent: 30))
        var campaign = SnapshotsCampaignParts.campaign(1, .known(.draft), schedule: .now)
        campaign.timing = draft.campaign.timing
        let back = JourneyForm(
            journey: JourneyRecord(campaign: campaign, rules: draft.rules, entered: 0, evaluatedUntil: nil))
        #expect(back["timing"] == "usual_hour" && back["timing_control_percent"] == "30")
        let refused = JourneyForm(fields: fields.merging(["timing": "soon"]) { $1 }).read(
            templates: PushTemplateLibrary())
        #expect(refused.draft == nil && refused.problems.contains { $0.hasPrefix("There is no timing “soon”") })
    }

    @Test func theLaunchConfirmationAndTheCampaignSayTheTiming() {
        var campaign = SnapshotsCampaignParts.campaign(21, .known(.draft), schedule: .now)
        campaign.timing = .usualHour(controlPercent: 15)
        let confirm = PageSnapshots.page(
            CampaignConfirmView(
                model: CampaignConfirmModel(
                    campaign: campaign, preview: SnapshotsCampaignParts.preview,
                    countedAt: SnapshotsCampaignParts.now, similar: [], defaultTimeZone: "UTC"),
                viewer: SnapshotsCampaignParts.viewer))
        #expect(confirm.contains("at each user's usual hour within 24 hours (control 15% at the fixed time)"))
        campaign.timing = nil
        let page = PageSnapshots.page(
            CampaignPageView(
                model: CampaignPageModel(campaign: campaign, defaultTimeZone: "UTC"),
                viewer: SnapshotsCampaignParts.viewer))
        #expect(page.contains("unknown timing"), "an unknown stored timing is said, not guessed")
    }
}
