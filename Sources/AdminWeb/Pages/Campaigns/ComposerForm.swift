import AdminDomain
import Foundation
import PushClients
import PushTemplates

/// The composer's fields as typed, kept to show again, and read into a draft through a
/// `FieldReader`: an unknown value is refused with a sentence, never replaced.
struct ComposerForm: QueryForm {
    static let fieldNames = [
        "name", "template", "title", "body", "deep_link", "ttl", "bucket", "plan", "near_limit", "food_days",
        "document_days", "document_type", "platform", "signed_up_from", "signed_up_to", "when", "send_at",
        "local_time", "per_second", "holdout_percent", "goal", "goal_days", "title_b", "body_b", "template_b",
        "title_c", "body_c", "template_c", "title_d", "body_d", "template_d", "test_percent", "winner_wait_hours",
        "timing",
        "timing_control_percent",
    ]
    var fields: [String: String] = [:]
    init() {}

    static let titleLimit = 150
    static let bodyLimit = 1_500

    /// Screens of the app a push may open.
    static let deepLinks: [(value: String, label: String)] = [
        ("expirytracker://items/expiring", "Items expiring soon"),
        ("expirytracker://items/new", "Add an item"),
        ("expirytracker://documents", "Documents"),
        ("expirytracker://premium", "Go premium"),
        ("expirytracker://settings/notifications", "Notification settings"),
    ]

    /// How long a provider keeps trying an offline device; FCM keeps four weeks at most.
    static let timesToLive: [(value: String, label: String)] = [
        ("3600", "1 hour"), ("21600", "6 hours"), ("86400", "1 day"), ("259200", "3 days"), ("604800", "1 week"),
        ("2419200", "4 weeks"),
    ]

    static let whens: [(value: String, label: String)] = [
        ("now", "Now"), ("at", "At a time (UTC)"), ("local", "At a local time in each recipient's timezone"),
    ]

    /// The posted form's fields, kept as typed (a field with a broken escape as sent: the
    /// form reader refuses it, and the form shown again loses nothing).
    init(form: FormFields) {
        self.init()
        fields = Self.keptFields(form, names: Self.fieldNames)
    }

    /// The named fields of a posted form, as typed; the journey form reads its own the same way.
    static func keptFields(_ form: FormFields, names: [String]) -> [String: String] {
        var fields: [String: String] = [:]
        for field in form.list where names.contains(field.name) {
            let name = field.name
            // Kept longer than any limit, so that a refusal counts what was typed.
            let isText = name.hasPrefix("body") || name.hasPrefix("title")
            let limit = name.hasPrefix("body") ? Self.bodyLimit * 4 : 10_000
            let value = String(field.value.prefix(limit))
            let kept =
                isText
                ? value.replacingOccurrences(of: "\r\n", with: "\n")
                : value.trimmingCharacters(in: .whitespacesAndNewlines)
            if !kept.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { fields[name] = kept }
        }
        return fields
    }

    struct Result {
        var draft: CampaignDraft?
        var problems: [String]
        /// For a refusal about one field, the field's name.
        var problemFields: [String: String] = [:]
        /// The payload of the longest message any recipient could get, in bytes.
        var longestPayload: Int?
    }

    /// The draft, or the sentences that refuse it.
    func read(templates: PushTemplateLibrary, now: Date) -> Result {
        var reader = FieldReader(self)
        let template = reader.choice("template", "template", in: templates.templates.keys.sorted())
        var title = self["title"]
        var body = self["body"]
        if let template, let english = templates.templates[template]?["en"] {
            title = english.titleSource
            body = english.bodySource
        }
        if Self.isBlank(title) { reader.problem("Write a title, or choose a template.", field: "title") }
        if Self.isBlank(body) { reader.problem("Write the message, or choose a template.", field: "body") }
        if title.count > Self.titleLimit {
            reader.problem("The title is \(title.count) characters; keep it to \(Self.titleLimit).", field: "title")
        }
        if body.count > Self.bodyLimit {
            reader.problem("The message is \(body.count) characters; keep it to \(Self.bodyLimit).", field: "body")
        }
        let deepLink = reader.choice("deep_link", "app screen", in: Self.deepLinks.map(\.value))
        let ttl = reader.choice("ttl", "time to live", in: Self.timesToLive.map(\.value)).flatMap { Int($0) } ?? 86_400
        var segment = CampaignSegment(
            bucket: reader.term("bucket", "activity"), plan: reader.term("plan", "plan"),
            platform: reader.term("platform", "platform"),
            signedUpFrom: reader.day("signed_up_from", "Signed up from"),
            signedUpTo: reader.day("signed_up_to", "Signed up to"))
        if reader.choice("near_limit", "item limit choice", in: ["1"]) != nil {
            segment.nearItemLimit = true
            if segment.plan == .premium {
                reader.problem(
                    "Users near the 50-item limit are free users: choose the free plan or any plan.", field: "plan")
            }
        }
        segment.foodExpiringWithinDays = reader.number("food_days", "Food expiring within", in: 0...365)
        segment.documentsExpiringWithinDays = reader.number("document_days", "Documents expiring within", in: 0...3_650)
        segment.documentType = reader.term("document_type", "document type")
        if segment.documentType != nil, segment.documentsExpiringWithinDays == nil {
            reader.problem(
                "A document type needs a number of days: documents of that type expiring within how many days?",
                field: "document_days")
        }
        if let sentence = DayRange(from: segment.signedUpFrom, to: segment.signedUpTo).reversedSentence(
            "The sign-up range")
        {
            reader.problem(sentence, field: "signed_up_to")
        }
        var schedule = CampaignSchedule.now
        switch reader.choice("when", "time to send", in: Self.whens.map(\.value)) {
        case "at":
            if let text = fields["send_at"], let date = Self.utcDate(text) {
                if date <= now {
                    reader.problem(
                        "The send time \(SQLiteTime.string(date)) UTC has passed: choose a later one, or send now.",
                        field: "send_at")
                }
                if date > now.addingTimeInterval(30 * 86_400) {
                    reader.problem("A campaign can be scheduled up to 30 days ahead.", field: "send_at")
                }
                schedule = .at(date)
            } else {
                reader.problem(
                    "Give the send time as a date and time (UTC), for example 2026-12-01T09:00, or with an offset "
                        + "such as +05:00 from UTC (2026-12-01T14:00+05:00 is 09:00 UTC).", field: "send_at")
            }
        case "local":
            if let time = fields["local_time"].flatMap(LocalTime.init) {
                schedule = .localTime(time)
            } else {
                reader.problem("Give the local time as HH:MM, for example 09:00.", field: "local_time")
            }
        default: break
        }
        let perSecond = reader.number("per_second", "Pushes a second", in: 1...10_000)
        let name = fields["name"]?.trimmingCharacters(in: .whitespacesAndNewlines)
        if let name, name.count > Campaigns.nameLimit {
            reader.problem(
                "The internal name is \(name.count) characters; keep it to \(Campaigns.nameLimit).", field: "name")
        }
        let experiment = readExperiment(&reader, templates: templates)
        let timing = readTiming(&reader, schedule: schedule, experiment: experiment)
        var longest: Int?
        if reader.problems.isEmpty {
            // The filled text's refusals are about the message (or its template) they checked.
            var checked = reader.problems.count
            longest = Self.check(
                title: title, body: body, template: template, label: nil, deepLink: deepLink, templates: templates,
                reader: &reader)
            for sentence in reader.problems[checked...] {
                reader.problem(field: template == nil ? "body" : "template", of: sentence)
            }
            for variant in experiment.variants {
                checked = reader.problems.count
                let bytes = Self.check(
                    title: variant.title, body: variant.body, template: variant.template,
                    label: "Variant \(variant.variant.letter)",
                    deepLink: deepLink, templates: templates, reader: &reader)
                let suffix = "_\(variant.variant.rawValue)"
                for sentence in reader.problems[checked...] {
                    reader.problem(field: (variant.template == nil ? "body" : "template") + suffix, of: sentence)
                }
                longest = max(longest ?? 0, bytes ?? 0)
            }
        }
        guard reader.problems.isEmpty else {
            return Result(
                draft: nil, problems: reader.problems, problemFields: reader.problemFields, longestPayload: longest)
        }
        return Result(
            draft: CampaignDraft(
                title: title, body: body, deepLink: deepLink, timeToLive: ttl, segment: segment,
                template: template, perSecond: perSecond, schedule: schedule, name: name, experiment: experiment,
                timing: timing),
            problems: [], longestPayload: longest)
    }

    /// A message's text checked as it will be filled: refusals go to `reader`, prefixed by
    /// `label` ("Variant B") when it is not the campaign's own. Returns the longest payload.
    static func check(
        title: String, body: String, template: String?, label: String?, deepLink: String?,
        templates: PushTemplateLibrary,
        reader: inout FieldReader
    ) -> Int? {
        let prefix = label.map { "\($0): " } ?? ""
        do {
            let text = try CampaignText(title: title, body: body, template: template, library: templates)
            // A comment, an empty plural form or a section can leave nothing once filled:
            // checked with every value missing (their fallbacks), with every value there,
            // and with every count at 1 (the singular forms).
            let ones = CampaignText.longestValues.merging(PushTemplate.countPlaceholders.map { ($0, "1") }) { _, one in
                one
            }
            for variant in text.variants {
                for values in [[:], CampaignText.longestValues, ones] {
                    let filled = variant.template.render(values)
                    let emptyTitle = Self.isBlank(filled.title)
                    let emptyBody = Self.isBlank(filled.body)
                    let sentence =
                        prefix
                        + "Filled in, the \(emptyTitle ? "title" : "message") (\(variant.language)) comes out empty "
                        + "for some recipients: write something every recipient sees."
                    if emptyTitle || emptyBody, !reader.problems.contains(sentence) { reader.problem(sentence) }
                }
            }
            let longest = Self.longestPayload(text, deepLink: deepLink)
            if longest > PushLimits.payloadBytes {
                reader.problem(
                    prefix
                        + "With every placeholder at its longest (\(CampaignText.valueLimit) characters) the push is "
                        + "\(Format.grouped(longest)) bytes; providers refuse more than "
                        + "\(Format.grouped(PushLimits.payloadBytes)). Shorten the text."
                )
            }
            return longest
        } catch {
            let sentence = error.description.prefix(1).uppercased() + error.description.dropFirst() + "."
            reader.problem(prefix + sentence)
            return nil
        }
    }

    /// Every variant filled with the longest values, as the clients would send it.
    static func longestPayload(_ text: CampaignText, deepLink: String?) -> Int {
        text.variants.map { variant in
            let filled = variant.template.render(CampaignText.longestValues)
            return PushMessage(
                deliveryID: "c9999999999-99999999999", token: "x", platform: .other, title: filled.title,
                body: filled.body, deepLink: deepLink
            ).payloadBytes
        }.max() ?? 0
    }

    /// Nothing a phone would show: spaces, controls and invisible format characters (a
    /// right-to-left override or a zero-width space alone is no title).
    static func isBlank(_ text: String) -> Bool {
        !text.unicodeScalars.contains { scalar in
            !(scalar.properties.isWhitespace
                || [.control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator]
                    .contains(scalar.properties.generalCategory))
        }
    }

    /// A stored draft as the composer's fields, to edit it.
    init(campaign: CampaignRecord) {
        self.init()
        var fields: [String: String] = ["ttl": String(campaign.timeToLive), "when": "now"]
        fields["name"] = campaign.name
        if let template = campaign.template {
            fields["template"] = template
        } else {
            fields["title"] = campaign.title
            fields["body"] = campaign.body
        }
        fields["deep_link"] = campaign.deepLink
        if let segment = campaign.segment {
            fields["bucket"] = segment.bucket?.rawValue
            fields["plan"] = segment.plan?.rawValue
            fields["near_limit"] = segment.nearItemLimit ? "1" : nil
            fields["food_days"] = segment.foodExpiringWithinDays.map(String.init)
            fields["document_days"] = segment.documentsExpiringWithinDays.map(String.init)
            fields["document_type"] = segment.documentType?.rawValue
            fields["platform"] = segment.platform?.rawValue
            fields["signed_up_from"] = segment.signedUpFrom?.text
            fields["signed_up_to"] = segment.signedUpTo?.text
        }
        switch campaign.schedule {
        case .now: break
        case .at(let date):
            fields["when"] = "at"
            // To the minute, or to the second when it has seconds: the draft's form keeps them.
            let stamp = SQLiteTime.string(date)
            fields["send_at"] = String(stamp.hasSuffix(":00") ? stamp.prefix(16) : stamp.prefix(19))
                .replacingOccurrences(of: " ", with: "T")
        case .localTime(let time):
            fields["when"] = "local"
            fields["local_time"] = time.description
        }
        fields["per_second"] = campaign.perSecond.map(String.init)
        fields.merge(Self.fields(of: campaign.experiment).compactMapValues { $0 }) { _, new in new }
        fields.merge(Self.fields(of: campaign.timing).compactMapValues { $0 }) { _, new in new }
        self.fields = fields.compactMapValues { $0 }
    }

    /// "2026-12-01T09:00" as a browser's datetime-local field sends it, read as UTC.
    /// The instant a send time spells, ISO 8601's extended form: `2026-12-02T10:00`, with
    /// seconds (`:30`) and a fraction of one (`.75`, dropped: deliveries are due to the
    /// second), then UTC (`Z`, or nothing) or an offset from it (`+05:00`, `-03:30`), which is
    /// taken off: `10:00+05:00` is 05:00 UTC. Anything else is no send time (nil), never a
    /// time read from part of it.
    static func utcDate(_ text: String) -> Date? {
        let parts = text.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let day = Day(String(parts[0])), parts[1].allSatisfy(\.isASCII) else { return nil }
        var rest = Substring(parts[1])
        guard let time = LocalTime(String(rest.prefix(5))) else { return nil }
        rest = rest.dropFirst(5)
        var second = 0
        if rest.first == ":" {
            let digits = rest.dropFirst().prefix(2)
            guard digits.count == 2, digits.allSatisfy(\.isNumber), let value = Int(digits), value < 60 else {
                return nil
            }
            second = value
            rest = rest.dropFirst(3)
            if rest.first == "." {
                let fraction = rest.dropFirst().prefix { $0.isNumber }
                guard !fraction.isEmpty else { return nil }
                rest = rest.dropFirst(1 + fraction.count)
            }
        }
        var offset = 0
        switch rest.first {
        case nil: break
        case "Z", "z": guard rest.count == 1 else { return nil }
        case "+", "-":
            let sign = rest.first == "-" ? -1 : 1
            guard rest.count == 6, let zone = LocalTime(String(rest.dropFirst())) else { return nil }
            offset = sign * (zone.hour * 3_600 + zone.minute * 60)
        default: return nil
        }
        guard let local = SQLiteTime.date("\(day.text) \(time.description):00") else { return nil }
        return local.addingTimeInterval(TimeInterval(second - offset))
    }
}

extension FieldReader {
    /// A refusal; `field` names the field it is about, when it is about one.
    mutating func problem(_ sentence: String, field: String? = nil) {
        problems.append(sentence)
        if let field, problemFields[sentence] == nil { problemFields[sentence] = field }
    }

    /// A whole number in `range`.
    mutating func number(_ name: String, _ label: String, in range: ClosedRange<Int>) -> Int? {
        guard let text = fields[name] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            problem(
                "\(label) must be a whole number from \(Format.grouped(range.lowerBound)) to "
                    + "\(Format.grouped(range.upperBound)).",
                field: name)
            return nil
        }
        return value
    }

    /// Names the field a refusal already given is about, unless it has one.
    mutating func problem(field: String, of sentence: String) {
        if problemFields[sentence] == nil { problemFields[sentence] = field }
    }
}
