import AdminDomain
import HTMLRender

/// "Send this to N devices?": the count, when, and the warnings, on a page of its own.
struct CampaignConfirmView: HTMLComponent {
    let model: CampaignConfirmModel
    let viewer: Viewer

    var content: HTMLNode {
        let campaign = model.campaign
        let devices = Format.grouped(model.preview.counts.reachableDevices)
        return PageLayout(pageTitle: "Confirm campaign #\(campaign.id)", viewer: viewer, activeSection: .campaigns) {
            section(.class("panel confirm")) {
                h1 { "Send campaign #\(campaign.id) to \(devices) devices?" }
                if let problem = model.problem { p(.class("notice error"), .role("alert")) { problem } }
                p {
                    strong(.id("confirm-count")) { devices }
                    " devices of \(Format.count(model.preview.counts.reachableUsers, "user", "users")), counted at \(SQLiteTime.string(model.countedAt)) UTC. The launch freezes whoever is reachable at that moment."
                }
                p { "A push cannot be taken back once sent. You can pause or cancel at any moment; what has gone out stays out." }
                if campaign.experiment.holdoutPercent > 0 {
                    p(.id("confirm-holdout")) {
                        "\(campaign.experiment.holdoutPercent)% of these users (about \(Format.grouped(CampaignPageView.expectedHoldout(model.preview.counts.reachableUsers, campaign.experiment.holdoutPercent)))) are drawn into the holdout at the launch: their devices get nothing."
                    }
                }
                if let test = campaign.experiment.testPercent {
                    p { "The variants go to \(test)% of the recipients first; the rest wait for the winner." }
                }
                if !model.similar.isEmpty {
                    div(.class("notice error"), .role("alert")) {
                        p { "The same audience got a campaign with the same title in the last 7 days:" }
                        ul {
                            for other in model.similar {
                                li { a(.href(SiteURL.campaign(id: other.id).href)) { "#\(other.id) launched \(other.launchedAt ?? "") UTC" } }
                            }
                        }
                    }
                }
                CampaignSummary(campaign: campaign, defaultTimeZone: model.defaultTimeZone)
                if let missing = model.preview.missingProviders {
                    p(.class("notice error"), .id("missing-providers")) { "Not counted: \(missing)." }
                }
                if model.preview.counts.reachableDevices == 0 {
                    p(.class("notice error"), .role("alert")) {
                        "No device in this audience can get a campaign push now: nothing would be sent. Edit the draft's audience, or wait until its people are reachable."
                    }
                } else if model.plannedTimeHasPassed() {
                    p(.class("notice error"), .role("alert")) {
                        "The planned time has passed: nothing can be sent as planned. Cancel this draft and compose the campaign again with a new time."
                    }
                } else {
                    launchForm
                }
            }
        }.content
    }

    @HTMLBuilder private var launchForm: [HTMLNode] {
        let campaign = model.campaign
        let devices = Format.grouped(model.preview.counts.reachableDevices)
        HTMLRender.form(.method(.post), .action(SiteURL.campaignConfirm(id: campaign.id).href), .class("actions")) {
            CSRFField(token: viewer.csrfToken)
            if model.mustType {
                label {
                    "Above \(Format.grouped(CampaignConfirmModel.typeAbove)) recipients, type the number of devices to confirm"
                    input(.type("text"), .name("typed_count"), .value(model.typed), .inputMode("numeric"), .autocomplete("off"), .required)
                }
            }
            button(.type("submit"), .class("danger")) { "Send to \(devices) devices" }
            a(.href(SiteURL.campaign(id: campaign.id).href)) { "Back" }
        }
    }
}
