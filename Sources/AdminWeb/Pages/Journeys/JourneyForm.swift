import AdminDomain
import Foundation
import PushTemplates

/// The journey form's fields as typed, kept to show again. The message, conditions and
/// measuring fields are the composer's and are read by `ComposerForm` (the same limits and
/// sentences); the rules are read here. An unknown value is refused, never replaced.
struct JourneyForm: QueryForm {
    /// The composer's fields a journey uses: not its schedule, pace or winner test.
    static let composerFields = [
        "name", "template", "title", "body", "deep_link", "ttl", "bucket", "plan", "platform", "signed_up_from",
        "signed_up_to", "holdout_percent", "goal", "goal_days", "title_b", "body_b", "template_b", "title_c",
        "body_c", "template_c", "title_d", "body_d", "template_d", "timing", "timing_control_percent",
    ]
    static let ruleFields = [
        "trigger", "trigger_days", "fewer_items", "send_at", "window_from", "window_to", "reentry_days", "daily_limit",
    ]
    static let fieldNames = composerFields + ruleFields
    var fields: [String: String] = [:]
    init() {}

    static let triggers: [(value: String, label: String)] = [
        ("inactive_days", "Inactive for N days (win-back, 7–180)"),
        ("first_days", "Signed up N days ago with fewer than K items (1–14 days, 1–50 items)"),
        ("subscription_ending", "Premium ends within N days and will not renew (1–14)"),
    ]
    static let sendAts: [(value: String, label: String)] = [
        ("daily_time", "At the user's own reminder time"),
        ("window", "Between two local hours"),
    ]
    /// A journey's holdout, drawn per entry.
    static let holdoutRange = 0...50

    /// A new journey's form: a win-back after 30 days, at the user's reminder time.
    static var blank: JourneyForm {
        JourneyForm(fields: [
            "trigger": "inactive_days", "trigger_days": "30", "send_at": "daily_time", "ttl": "86400", "goal_days": "7",
        ])
    }

    /// A posted form as typed, the composer's way (kept longer than any limit, so that a
    /// refusal counts what was typed).
    init(form: FormFields) {
        self.init()
        fields = ComposerForm.keptFields(form, names: Self.fieldNames)
    }

    /// The draft, or the sentences that refuse it (every problem, the message's and the rules'),
    /// with the field each is about when it is about one.
    func read(templates: PushTemplateLibrary) -> (draft: JourneyDraft?, problems: [String], fields: [String: String]) {
        var composer = ComposerForm(fields: fields.filter { Self.composerFields.contains($0.key) })
        composer.fields["when"] = "now"
        // A journey's holdout is 0–50 like a campaign's; checked here too in case that changes.
        var problems: [String] = []
        let result = composer.read(templates: templates, now: Date())
        problems += result.problems
        var reader = FieldReader(self)
        reader.problemFields = result.problemFields
        let trigger = reader.choice("trigger", "trigger", in: Self.triggers.map(\.value))
        if fields["trigger"] == nil { reader.problem("Choose a trigger.", field: "trigger") }
        var rules: JourneyRules?
        let days = whole("trigger_days", "The trigger's number of days", &reader)
        let fewer = whole("fewer_items", "Fewer items", &reader)
        var chosen: JourneyTrigger?
        switch trigger {
        case "inactive_days": chosen = days.map { .inactiveDays($0) }
        case "subscription_ending": chosen = days.map { .subscriptionEnding($0) }
        case "first_days":
            if fields["fewer_items"] == nil {
                reader.problem("Give the number of items (1–50) a new user has fewer than.", field: "fewer_items")
            }
            if let days, let fewer { chosen = .firstDays(days, fewerItems: fewer) }
        default: break
        }
        if trigger != nil, fields["trigger_days"] == nil {
            reader.problem("Give the trigger's number of days.", field: "trigger_days")
        }
        var sendAt: JourneySendAt?
        switch reader.choice("send_at", "sending time", in: Self.sendAts.map(\.value)) {
        case "window":
            let from = whole("window_from", "The window's first hour", &reader)
            let to = whole("window_to", "The window's last hour", &reader)
            if let from, let to {
                sendAt = .window(from: from, to: to)
            } else if fields["window_from"] == nil || fields["window_to"] == nil {
                reader.problem(
                    "Give the window's hours, from 0 to 23.",
                    field: fields["window_from"] == nil ? "window_from" : "window_to")
            }
        case "daily_time": sendAt = .dailyTime
        default: if fields["send_at"] == nil { reader.problem("Choose when to send.", field: "send_at") }
        }
        let reentry = whole("reentry_days", "Re-entry (days)", &reader)
        let limit = whole("daily_limit", "The daily limit", &reader)
        if let chosen, let sendAt {
            let candidate = JourneyRules(trigger: chosen, sendAt: sendAt, reentryDays: reentry, dailyLimit: limit)
            if let refusal = candidate.refusal {
                reader.problem(refusal, field: Self.field(ofRule: refusal))
            } else {
                rules = candidate
            }
        }
        if let holdout = fields["holdout_percent"].flatMap({ Int($0) }), !Self.holdoutRange.contains(holdout),
            !problems.contains(where: { $0.hasPrefix("The holdout") })
        {
            reader.problem("A journey's holdout must be from 0 to 50 percent.", field: "holdout_percent")
        }
        problems += reader.problems
        guard problems.isEmpty, let rules, let campaign = result.draft else {
            return (nil, problems, reader.problemFields)
        }
        return (JourneyDraft(campaign: campaign, rules: rules), [], [:])
    }

    /// The field a refusal of the rules is about, from the words the rules use for it.
    static func field(ofRule sentence: String) -> String {
        let lowered = sentence.lowercased()
        if lowered.contains("window") { return "window_from" }
        if lowered.contains("re-entry") { return "reentry_days" }
        if lowered.contains("daily limit") { return "daily_limit" }
        if lowered.contains("fewer items") { return "fewer_items" }
        return "trigger_days"
    }

    /// A whole number as typed, any size (the rules say the range); nil when empty.
    private func whole(_ name: String, _ label: String, _ reader: inout FieldReader) -> Int? {
        guard let text = fields[name] else { return nil }
        guard let value = Int(text) else {
            reader.problem("\(label) must be a whole number: “\(text.prefix(40))” is not.", field: name)
            return nil
        }
        return value
    }

    /// A stored journey as the form's fields, to edit it.
    init(journey: JourneyRecord) {
        self.init()
        var fields = ComposerForm(campaign: journey.campaign).fields.filter { Self.composerFields.contains($0.key) }
        if let rules = journey.rules {
            fields["trigger"] = rules.trigger.stored
            fields["trigger_days"] = String(rules.trigger.days)
            fields["fewer_items"] = rules.trigger.fewerItems.map(String.init)
            fields["send_at"] = rules.sendAt.stored
            if case .window(let from, let to) = rules.sendAt {
                fields["window_from"] = String(from)
                fields["window_to"] = String(to)
            }
            fields["reentry_days"] = rules.reentryDays.map(String.init)
            fields["daily_limit"] = rules.dailyLimit.map(String.init)
        }
        self.fields = fields
    }
}
