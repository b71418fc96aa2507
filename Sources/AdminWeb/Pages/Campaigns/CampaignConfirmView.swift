import AdminDomain
import HTMLRender

/// "Send this to N devices?": the count, when, and the warnings, on a page of its own.
struct CampaignConfirmView: HTMLComponent {
    let model: CampaignConfirmModel
    let viewer: Viewer

    var content: HTMLNode {
        let campaign = model.campaign
        let devices = Format.grouped(model.devicesToSend)
        let preview = model.preview
        return PageLayout(pageTitle: "Confirm campaign #\(campaign.id)", viewer: viewer, activeSection: .campaigns) {
            section(.class("panel confirm")) {
                // Nothing reachable: no question to ask, only why.
                h1 {
                    model.preview.counts.reachableDevices == 0
                        ? "Campaign #\(campaign.id) cannot be sent now"
                        : "Send campaign #\(campaign.id) to \(devices) devices?"
                }
                if let problem = model.problem { p(.class("notice error"), .role("alert")) { problem } }
                if let notice = model.notice {
                    p(.class("notice"), .role("status"), .id("confirm-recounted")) { notice }
                }
                p {
                    strong(.id("confirm-count")) { devices }
                    " devices to send to, of "
                        + "\(Format.count(preview.counts.reachableUsers - preview.heldOutUsers, "user", "users")), "
                        + "counted at \(SQLiteTime.string(model.countedAt)) UTC. The launch freezes whoever is "
                        + "reachable at that moment."
                }
                p {
                    "A push cannot be taken back once sent. You can pause or cancel at any moment; what has gone out "
                        + "stays out."
                }
                if campaign.experiment.holdoutPercent > 0 {
                    p(.id("confirm-holdout")) {
                        "Held out: "
                        strong(.id("confirm-held-out")) { Format.count(preview.heldOutUsers, "user", "users") }
                        " (\(Format.count(preview.heldOutDevices, "device", "devices"))) of the "
                            + "\(Format.grouped(preview.counts.reachableUsers)) reachable are drawn into the holdout "
                            + "(\(campaign.experiment.holdoutPercent)%): they get nothing, and are not in the devices "
                            + "to send to."
                    }
                }
                if let timing = ScheduleWords.timing(campaign.timing) {
                    p(.id("confirm-timing")) { "Timing: " + timing + "." }
                }
                if let test = campaign.experiment.testPercent {
                    p { "The variants go to \(test)% of the recipients first; the rest wait for the winner." }
                }
                if !model.similar.isEmpty {
                    div(.class("notice error"), .role("alert")) {
                        p { "The same audience got a campaign with the same title in the last 7 days:" }
                        ul {
                            for other in model.similar {
                                li {
                                    a(.href(SiteURL.campaign(id: other.id).href)) {
                                        "#\(other.id) launched \(other.launchedAt?.text ?? "") UTC"
                                    }
                                }
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
                        model.preview.missingProviders == nil
                            ? "No device in this audience can get a campaign push now: nothing would be sent. Edit the "
                                + "draft's audience, or wait until its people are reachable."
                            : "No device in this audience can get a campaign push now: nothing would be sent. Start "
                                + "the panel with the missing provider's credentials (see operations), or edit the "
                                + "draft's audience."
                    }
                } else if model.plannedTimeHasPassed() {
                    p(.class("notice error"), .role("alert")) {
                        "The planned time has passed: nothing can be sent as planned. Cancel this draft and compose "
                            + "the campaign again with a new time."
                    }
                } else {
                    launchForm
                }
            }
        }.content
    }

    @HTMLBuilder private var launchForm: [HTMLNode] {
        let campaign = model.campaign
        let devices = Format.grouped(model.devicesToSend)
        let heldOut = model.preview.heldOutUsers
        HTMLRender.form(.method(.post), .action(SiteURL.campaignConfirm(id: campaign.id).href), .class("actions")) {
            CSRFField(token: viewer.csrfToken)
            // The count this page shows: a launch after a newer count is refused.
            input(.type("hidden"), .name("counted_at"), .value(model.countStamp))
            if model.mustType {
                label {
                    "Above \(Format.grouped(CampaignConfirmModel.typeAbove)) devices, type the number of devices to "
                        + "send to, to confirm"
                    input(
                        .type("text"), .name("typed_count"), .value(model.typed), .inputMode("numeric"),
                        .autocomplete("off"), .required)
                }
            }
            button(.type("submit"), .class("danger")) {
                "Send to \(devices) devices"
                    + (heldOut > 0 ? "; hold out \(Format.count(heldOut, "user", "users"))" : "")
            }
            a(.href(SiteURL.campaign(id: campaign.id).href)) { "Back" }
        }
    }
}
