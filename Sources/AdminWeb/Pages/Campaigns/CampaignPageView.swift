import AdminDomain
import CampaignDispatch
import HTMLRender

/// A campaign: what it says, to whom and when; before its launch the audience preview and
/// the way to the confirmation, after it the live counts.
struct CampaignPageView: HTMLComponent {
    let model: CampaignPageModel
    let viewer: Viewer

    var content: HTMLNode {
        let campaign = model.campaign
        let status = campaign.status.known
        var extras: [HTMLNode] = []
        if status == .draft, model.previewPending {
            // Until the audience is counted the page refreshes itself, with or without JavaScript.
            extras.append(meta(Attribute("http-equiv", "refresh"), .content("1")))
        } else if status != .draft {
            extras.append(noscript { meta(Attribute("http-equiv", "refresh"), .content("5")) })
            extras.append(script(.src(SiteURL.campaignScript.path), .defer) {})
        }
        return PageLayout(
            pageTitle: "Campaign #\(campaign.id)", viewer: viewer, activeSection: .campaigns, headExtras: extras
        ) {
            section(
                .class("panel"),
                Attribute("data-events", status == .draft ? "" : SiteURL.campaignEvents(id: campaign.id).href)
            ) {
                h1 {
                    "Campaign #\(campaign.id): "
                    UserText(text: campaign.displayName, clampAfter: .max)
                }
                p {
                    CampaignStatusBadge(campaign: campaign, live: true)
                    " · created by \(campaign.createdBy ?? "someone since removed") at "
                    span(.class("nowrap")) { campaign.createdAt.text + " UTC" }
                }
                // Always there, so that the live updates can show a stop's reason as it happens.
                if let detail = campaign.statusDetail {
                    p(.class("notice error"), .role("alert"), .id("status-detail")) { detail }
                } else {
                    p(.class("notice error"), .role("alert"), .id("status-detail"), .hidden) {}
                }
                if let notice = model.notice { p(.class("notice"), .role("status")) { notice.sentence } }
                for problem in model.problems { p(.class("notice error"), .role("alert")) { problem } }
                CampaignSummary(campaign: campaign, defaultTimeZone: model.defaultTimeZone)
                actions
            }
            if status == .draft {
                draftSections
            } else if let progress = model.progress {
                section(.class("panel")) {
                    h2 { "Delivery" }
                    p(.class("muted"), .id("live-note")) {
                        "Updates live. Without JavaScript this page reloads every 5 seconds."
                    }
                    CampaignProgressView(progress: progress)
                    p(.id("global-control")) { globalControlSentence }
                    p { a(.href(SiteURL.campaign(id: campaign.id).href)) { "Refresh" } }
                }
                if let timing = model.timing { SendHoursSection(summary: timing) }
                if let cost = model.cost { PushCostView(cost: cost, window: model.consentWindow) }
                CampaignImpactView(
                    campaign: campaign, impact: model.impact, nobodyDrawn: model.nobodyDrawn, viewer: viewer)
                if !(status?.isEnded ?? true) { testSendSection }
            }
        }.content
    }

    @HTMLBuilder private var draftSections: [HTMLNode] {
        let campaign = model.campaign
        section(.class("panel")) {
            h2 { "Preview" }
            if let phone = model.phone {
                previewSwitcher(phone)
                PhonePreview(
                    title: phone.title, body: phone.body, platform: phone.platform,
                    caption: shownVariant(phone)
                        + (phone.recipient.map {
                            "As user #\($0.userID) would see it, in the \(phone.language) text on "
                                + "\(phone.platform == .ios ? "iOS" : "Android")."
                        }
                            ?? (model.audienceCounted
                                ? "Nobody in the audience can get it now: filled with the fallbacks"
                                : "Filled with the fallbacks until the audience is counted")
                                + " (\(phone.language), \(phone.platform == .ios ? "iOS" : "Android")).")
                )
                if !phone.fallbacks.isEmpty {
                    p(.class("muted")) {
                        "This recipient gets a fallback for: \(phone.fallbacks.joined(separator: ", "))."
                    }
                }
            }
        }
        section(.class("panel")) {
            h2 { "Audience" }
            switch model.preview {
            case .queued(let ahead)?:
                p(.role("status")) {
                    ahead == 0
                        ? "Waiting for a free place to count the audience: this draft is next."
                        : "Waiting for a free place to count the audience: \(ahead) preview\(ahead == 1 ? "" : "s") "
                            + "go\(ahead == 1 ? "es" : "") first."
                }
                p(.class("muted")) {
                    "Audiences are counted a few at a time, so that the panel stays quick for everyone. This page "
                        + "refreshes itself."
                }
            case .counting(let progress)?:
                p(.role("status")) { "Counting the audience… \(Format.percent(progress, decimals: 0))" }
                element(
                    "progress", [Attribute("max", "1"), .value(String(progress)), .ariaLabel("Counting the audience")]
                ) { Format.percent(progress) }
                p(.class("muted")) { "This page refreshes itself until the count is done." }
            case .ready(let preview, let at)?:
                AudiencePreviewView(preview: preview, countedAt: SQLiteTime.string(at), viewer: viewer)
                if campaign.experiment.holdoutPercent > 0 {
                    p(.id("expected-holdout")) {
                        "Holdout: \(Format.count(preview.heldOutUsers, "user", "users")) "
                        "(\(Format.count(preview.heldOutDevices, "device", "devices"))) of the "
                        "\(Format.grouped(preview.counts.reachableUsers)) reachable "
                        "(\(campaign.experiment.holdoutPercent)%) are drawn to get nothing, to measure the lift "
                        "against; the devices above include theirs, so "
                        "\(Format.count(preview.devicesToSend, "device", "devices")) would be sent to. The frequency "
                        "cap is not charged for them."
                    }
                }
                // The same step as the page's actions, where it is the one primary button.
                p {
                    a(.href(SiteURL.campaignConfirm(id: campaign.id).href), .class("button")) {
                        "Continue to the confirmation"
                    }
                }
            case .failed(let sentence)?:
                p(.class("notice error"), .role("alert")) { sentence }
            case nil:
                p { "No preview." }
            }
        }
        testSendSection
    }

    /// The members of the global control group the freeze left out; those drawn later are the
    /// deliveries settled "no longer in the audience when due: global control group" above.
    private var globalControlSentence: String {
        let users = model.campaign.totals.controlUsers
        return users == 0
            ? "Global control group: nobody of the audience was left out when it was frozen."
            : "Global control group: \(Format.count(users, "user", "users")) of the audience "
                + "\(users == 1 ? "was" : "were") left out when it was frozen, and got no push of it."
    }

    /// "Variant B. " when the campaign has variants.
    private func shownVariant(_ phone: CampaignPageModel.Phone) -> String {
        phone.variants.count > 1 ? "Variant \(phone.variant.letter). " : ""
    }

    /// Variant, sample recipient, language and platform, as a form that reloads the page.
    private func previewSwitcher(_ phone: CampaignPageModel.Phone) -> HTMLNode {
        HTMLRender.form(
            .method(.get), .action(SiteURL.campaign(id: model.campaign.id).path), .class("inline preview-switcher")
        ) {
            if phone.variants.count > 1 {
                label {
                    "Variant"
                    select(.name("variant")) {
                        for variant in phone.variants {
                            option(selectedIf: variant == phone.variant, .value(variant.letter)) { variant.letter }
                        }
                    }
                }
            }
            if !phone.samples.isEmpty {
                label {
                    "Sample recipient"
                    select(.name("sample")) {
                        for sample in phone.samples {
                            option(selectedIf: sample.userID == phone.recipient?.userID, .value(String(sample.userID)))
                            {
                                "User #\(sample.userID) (\(sample.locale.isEmpty ? "no locale" : sample.locale), "
                                    + "\(sample.platform))"
                            }
                        }
                    }
                }
            }
            label {
                "Language"
                select(.name("language")) {
                    for language in phone.languages {
                        option(selectedIf: language == phone.language, .value(language)) { language }
                    }
                }
            }
            label {
                "Platform"
                select(.name("platform")) {
                    option(selectedIf: phone.platform == .ios, .value(Platform.ios.rawValue)) { "iOS" }
                    option(selectedIf: phone.platform == .android, .value(Platform.android.rawValue)) { "Android" }
                }
            }
            button(.type("submit")) { "Show" }
        }
    }

    /// Only to test users, chosen from their list: the form never says whether an email has
    /// an account.
    @HTMLBuilder private var testSendSection: [HTMLNode] {
        let campaign = model.campaign
        section(.class("panel")) {
            h2 { "Test send" }
            p {
                "Sends this message now, filled for that user, to each of their devices that could get a campaign "
                "push. At most \(TestUsers.defaultPerMinute) a minute from you and \(TestUsers.defaultPerDay) a day to "
                "each test user from all staff, never in the test user's quiet hours; audited. "
                a(.href(SiteURL.testUsers().href)) { "Manage the test users" }
            }
            if model.testUsers.isEmpty {
                p(.class("muted")) { "There are no test users yet." }
            } else {
                HTMLRender.form(
                    .method(.post), .action(SiteURL.campaignTestSend(id: campaign.id).href), .class("spaced")
                ) {
                    CSRFField(token: viewer.csrfToken)
                    label {
                        "Test user"
                        select(.name("user"), .required) {
                            for user in model.testUsers {
                                option(selectedIf: user.userID == model.testedUser, .value(String(user.userID))) {
                                    "\(UserText.visible(user.email)) (\(user.reachableDevices) "
                                        + "device\(user.reachableDevices == 1 ? "" : "s") that can get it)"
                                }
                            }
                        }
                    }
                    let letters = campaign.experiment.letters
                    if letters.count > 1 {
                        label {
                            "Variant"
                            select(.name("variant")) {
                                for variant in letters {
                                    option(selectedIf: variant == (model.testedVariant ?? .a), .value(variant.letter)) {
                                        variant.letter
                                    }
                                }
                            }
                        }
                    }
                    button(.type("submit")) { "Send a test" }
                }
            }
            if !model.testLines.isEmpty {
                Self.testTable(model.testLines, variant: model.testedVariant ?? .a, of: campaign)
            }
            // Each other variant's latest test send from this session stays, under its letter.
            for other in model.otherTests where !other.lines.isEmpty {
                Self.testTable(other.lines, variant: other.variant, of: campaign)
            }
        }
    }

    static func testTable(_ lines: [CampaignTestSend.Line], variant: MessageVariant, of campaign: CampaignRecord)
        -> DataTable
    {
        DataTable(
            caption: campaign.experiment.letters.count > 1 ? "Test send of variant \(variant.letter)" : "Test send",
            headings: ["Device", "Outcome", "Title it got", "Message it got"],
            rows: lines.map {
                ["#\($0.deviceID) (\($0.platform), token \($0.maskedToken))", $0.outcome, $0.title, $0.body]
            })
    }

    @HTMLBuilder private var actions: [HTMLNode] {
        let campaign = model.campaign
        let status = campaign.status.known
        div(.class("actions")) {
            if status == .draft {
                // The draft's next step leads, once its audience is counted.
                if case .ready? = model.preview {
                    a(.href(SiteURL.campaignConfirm(id: campaign.id).href), .class("button primary")) {
                        "Continue to the confirmation"
                    }
                }
                a(.href(SiteURL.campaignEdit(id: campaign.id).href), .class("button")) { "Edit the draft" }
            }
            // Pause, resume and cancel are on a launched campaign's page, those that do not apply
            // now hidden: the live updates show them as the status changes. The server checks
            // again on each. A draft or an ended campaign never shows them.
            for action in CampaignAction.allCases where action.belongs(to: status) {
                let applies = status.map(action.allowed.contains) == true
                let allowed = Attribute("data-allowed", action.allowed.map(\.rawValue).sorted().joined(separator: " "))
                if action.asksFirst {
                    element(
                        "a",
                        [.href(SiteURL.campaignAction(id: campaign.id, action).href), .class("button danger"), allowed]
                            + (applies ? [] : [.hidden])
                    ) { action.button }
                } else {
                    element(
                        "form",
                        [
                            .method(.post), .action(SiteURL.campaignAction(id: campaign.id, action).href),
                            .class("inline"), allowed,
                        ]
                            + (applies ? [] : [.hidden])
                    ) {
                        CSRFField(token: viewer.csrfToken)
                        button(.type("submit")) { action.button }
                    }
                }
            }
            a(.href(SiteURL.campaigns().href)) { "All campaigns" }
        }
    }
}

/// What a campaign says, to whom and when.
struct CampaignSummary: HTMLComponent {
    /// "Variants A and B", "Variants A, B and C".
    static func letters(_ experiment: CampaignExperiment) -> String {
        let names = experiment.letters.map(\.letter)
        return "Variants " + names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "A")
    }

    let campaign: CampaignRecord
    let defaultTimeZone: String

    var content: HTMLNode {
        dl(.class("facts")) {
            Self.message(campaign)
            dt { "Opens" }
            dd { campaign.deepLink ?? "the app's home screen" }
            dt { "Audience" }
            dd { campaign.segment.map(SegmentWords.sentence) ?? "cannot be read" }
            dt { "When" }
            dd {
                campaign.status.known == .draft
                    ? ScheduleWords.sentence(campaign.schedule, defaultTimeZone: defaultTimeZone)
                    : "launched at \(campaign.launchedAt?.text ?? "?") UTC" + Self.planned(campaign.schedule)
            }
            if let timing = ScheduleWords.timing(campaign.timing) {
                dt { "Timing" }
                dd(.id("campaign-timing")) { timing }
            }
            dt { "Throttle" }
            dd {
                campaign.perSecond.map { "\(Format.grouped($0)) push\($0 == 1 ? "" : "es") a second" }
                    ?? "the providers' quota"
            }
            if let ended = campaign.finishedAt {
                dt { campaign.status.known == .cancelled ? "Cancelled" : "Finished" }
                dd { "\(ended) UTC" }
            }
            let experiment = campaign.experiment
            Self.variants(experiment, withTemplates: true)
            if !experiment.variants.isEmpty {
                dt { "Variants" }
                dd {
                    experiment.testPercent.map {
                        "\(Self.letters(experiment)) go to \($0)% of the recipients first; after "
                            + "\(Format.count(experiment.winnerWaitHours ?? 24, "hour", "hours")) the best goes to the "
                            + "rest"
                    }
                        ?? "\(Self.letters(experiment)): each recipient is drawn into one"
                }
            }
            dt { "Holdout" }
            dd {
                experiment.holdoutPercent == 0
                    ? "none" : "\(experiment.holdoutPercent)% of the reachable users get nothing"
            }
            dt { "Goal" }
            dd {
                experiment.goal.map {
                    "\($0.label), within \(experiment.goalDays) day\(experiment.goalDays == 1 ? "" : "s") of the send "
                        + "time"
                } ?? "none (opens only)"
            }
        }
    }
}

extension CampaignSummary {
    /// Name, title, text and template as facts, shown also for a journey's message. As typed,
    /// isolated: a right-to-left override must not turn what is shown around.
    @HTMLBuilder static func message(_ campaign: CampaignRecord) -> [HTMLNode] {
        if let name = campaign.name, !name.isEmpty {
            dt { "Internal name" }
            dd { UserText(text: name, clampAfter: .max) }
        }
        dt { "Title" }
        dd { UserText(text: campaign.title, clampAfter: .max) }
        dt { "Message" }
        dd { UserText(text: campaign.body, clampAfter: .max, multiline: true) }
        if let template = campaign.template {
            dt { "Template" }
            dd { template }
        }
    }

    /// Variants B to D, title — text; a journey's page leaves out their templates.
    @HTMLBuilder static func variants(_ experiment: CampaignExperiment, withTemplates: Bool) -> [HTMLNode] {
        for variant in experiment.variants {
            dt { "Variant \(variant.variant.letter)" }
            dd {
                UserText(text: variant.title, clampAfter: .max)
                " — "
                UserText(text: variant.body, clampAfter: .max, multiline: true)
                if withTemplates, let template = variant.template { " (template \(template))" }
            }
        }
    }

    /// After the launch, what the schedule still says: when the pushes are due.
    static func planned(_ schedule: CampaignSchedule) -> String {
        switch schedule {
        case .now: ""
        case .at(let date): "; due \(ScheduleWords.day(date)) at \(ScheduleWords.time(date)) UTC (after quiet hours)"
        case .localTime(let local): "; due at the next \(local) where each recipient is (after quiet hours)"
        }
    }
}

/// A segment as a sentence.
enum SegmentWords {
    static func sentence(_ segment: CampaignSegment) -> String {
        var parts: [String] = []
        if let bucket = segment.bucket { parts.append(bucket.label.lowercased()) }
        if let plan = segment.plan { parts.append("\(plan.rawValue) plan") }
        if segment.nearItemLimit { parts.append("free users with \(CampaignSegment.nearLimitItems) items or more") }
        if let days = segment.foodExpiringWithinDays { parts.append("food expiring within \(days) days") }
        if let days = segment.documentsExpiringWithinDays {
            parts.append(
                "\(segment.documentType.map { $0.label.lowercased() + "s" } ?? "documents") expiring within \(days) "
                    + "days"
            )
        }
        if let platform = segment.platform { parts.append("\(platform.rawValue) devices") }
        if let from = segment.signedUpFrom { parts.append("signed up from \(from)") }
        if let to = segment.signedUpTo { parts.append("signed up to \(to)") }
        return parts.isEmpty ? "All users" : "Users: " + parts.joined(separator: "; ")
    }
}
