import AdminDomain
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
        if status == .draft, case .counting = model.preview {
            // Until the audience is counted the page refreshes itself, with or without JavaScript.
            extras.append(meta(Attribute("http-equiv", "refresh"), .content("1")))
        } else if status != .draft {
            extras.append(noscript { meta(Attribute("http-equiv", "refresh"), .content("5")) })
            extras.append(script(.src(SiteURL.campaignScript.path), .defer) {})
        }
        return PageLayout(pageTitle: "Campaign #\(campaign.id)", viewer: viewer, activeSection: .campaigns, headExtras: extras) {
            section(.class("panel"), Attribute("data-events", status == .draft ? "" : SiteURL.campaignEvents(id: campaign.id).href)) {
                h1 { "Campaign #\(campaign.id): \(campaign.title)" }
                p { CampaignStatusBadge(campaign: campaign, live: true); " · created by \(campaign.createdBy ?? "someone since removed") at \(campaign.createdAt) UTC" }
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
                    p(.class("muted"), .id("live-note")) { "Updates live. Without JavaScript this page reloads every 5 seconds." }
                    CampaignProgressView(progress: progress)
                    p { a(.href(SiteURL.campaign(id: campaign.id).href)) { "Refresh" } }
                }
            }
        }.content
    }

    @HTMLBuilder private var draftSections: [HTMLNode] {
        let campaign = model.campaign
        section(.class("panel")) {
            h2 { "Preview" }
            if let phone = model.phone {
                PhonePreview(title: phone.title, body: phone.body, caption: phone.recipient.map {
                    "As user #\($0.userID) (\($0.locale), \($0.platform)) would see it."
                } ?? "Filled with the fallbacks until the audience is counted.")
            }
        }
        section(.class("panel")) {
            h2 { "Audience" }
            switch model.preview {
            case .counting(let progress)?:
                p(.role("status")) { "Counting the audience… \(Format.percent(progress, decimals: 0))" }
                element("progress", [Attribute("max", "1"), .value(String(progress)), .ariaLabel("Counting the audience")]) { Format.percent(progress) }
                p(.class("muted")) { "This page refreshes itself until the count is done." }
            case .ready(let preview, let at)?:
                AudiencePreviewView(preview: preview, countedAt: SQLiteTime.string(at), viewer: viewer)
                p { a(.href(SiteURL.campaignConfirm(id: campaign.id).href), .class("button primary")) { "Continue to the confirmation" } }
            case .failed(let sentence)?:
                p(.class("notice error"), .role("alert")) { sentence }
            case nil:
                p { "No preview." }
            }
        }
        section(.class("panel")) {
            h2 { "Test send" }
            p { "Sends this message now, filled for that user, to every device of theirs with a push token. It is audited." }
            HTMLRender.form(.method(.post), .action(SiteURL.campaignTestSend(id: campaign.id).href), .class("inline")) {
                CSRFField(token: viewer.csrfToken)
                label {
                    "User's email"
                    input(.type("email"), .name("email"), .required, .autocomplete("off"))
                }
                button(.type("submit")) { "Send a test" }
            }
            if !model.testLines.isEmpty {
                DataTable(caption: "Test send", headings: ["Device", "Outcome"],
                          rows: model.testLines.map { ["#\($0.deviceID) (\($0.platform), token \($0.maskedToken))", $0.outcome] })
            }
        }
    }

    @HTMLBuilder private var actions: [HTMLNode] {
        let campaign = model.campaign
        div(.class("actions")) {
            // Every action is on the page, those that do not apply now hidden: the live updates
            // show them as the status changes. The server checks again on each.
            for action in CampaignAction.allCases {
                let applies = campaign.status.known.map(action.allowed.contains) == true
                element("form", [.method(.post), .action(SiteURL.campaignAction(id: campaign.id, action).href), .class("inline"),
                                 Attribute("data-allowed", action.allowed.map(\.rawValue).sorted().joined(separator: " "))] + (applies ? [] : [.hidden])) {
                    CSRFField(token: viewer.csrfToken)
                    button(.type("submit"), .class(action == .cancel ? "danger" : "")) { action.button }
                }
            }
            a(.href(SiteURL.campaigns().href)) { "All campaigns" }
        }
    }
}

/// What a campaign says, to whom and when.
struct CampaignSummary: HTMLComponent {
    let campaign: CampaignRecord
    let defaultTimeZone: String

    var content: HTMLNode {
        dl(.class("facts")) {
            dt { "Title" }; dd { campaign.title }
            dt { "Message" }; dd { campaign.body }
            if let template = campaign.template { dt { "Template" }; dd { template } }
            dt { "Opens" }; dd { campaign.deepLink ?? "the app's home screen" }
            dt { "Audience" }; dd { campaign.segment.map(SegmentWords.sentence) ?? "cannot be read" }
            dt { "When" }; dd { campaign.status.known == .draft ? ScheduleWords.sentence(campaign.schedule, defaultTimeZone: defaultTimeZone)
                                                                 : "launched at \(campaign.launchedAt ?? "?") UTC" }
            dt { "Throttle" }; dd { campaign.perSecond.map { "\(Format.grouped($0)) pushes a second" } ?? "the providers' quota" }
            if let finished = campaign.finishedAt { dt { "Finished" }; dd { "\(finished) UTC" } }
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
            parts.append("\(segment.documentType?.rawValue ?? "documents") expiring within \(days) days")
        }
        if let platform = segment.platform { parts.append("\(platform.rawValue) devices") }
        if let from = segment.signedUpFrom { parts.append("signed up from \(from)") }
        if let to = segment.signedUpTo { parts.append("signed up to \(to)") }
        return parts.isEmpty ? "All users" : "Users: " + parts.joined(separator: "; ")
    }
}
