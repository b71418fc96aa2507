import AdminDomain
import HTMLRender

/// "Cancel this campaign?" or "Delete this draft?": what has happened and what will not, on a
/// page of its own, so that no single click (nor Enter on a focused button) does either.
struct CampaignAskView: HTMLComponent {
    let campaign: CampaignRecord
    let action: CampaignAction
    /// The counts now, for a cancel.
    let progress: CampaignProgress?
    let viewer: Viewer

    var content: HTMLNode {
        let heading = action == .delete ? "Delete draft #\(campaign.id)?" : "Cancel campaign #\(campaign.id)?"
        return PageLayout(pageTitle: heading, viewer: viewer, activeSection: .campaigns) {
            section(.class("panel confirm")) {
                h1 { heading }
                p { strong { UserText(text: campaign.displayName, clampAfter: .max) } }
                if action == .delete {
                    p { "It was never sent. It goes from the list of campaigns; the audit log keeps the record of it." }
                } else if let progress {
                    p(.id("ask-sent")) {
                        "\(Format.grouped(progress.sent)) push\(progress.sent == 1 ? " has" : "es have") gone out (or "
                        "may have): they stay out, and receipts for them are still counted."
                    }
                    p(.id("ask-unsent")) {
                        "\(Format.grouped(progress.queued + progress.waiting)) waiting "
                            + "deliver\(progress.queued + progress.waiting == 1 ? "y" : "ies") will not be sent."
                    }
                    if progress.total == 0 {
                        p { "Its audience is still being frozen: no more of it will be written." }
                    }
                    p { "A cancelled campaign cannot be resumed. To send it again later, duplicate it." }
                }
                HTMLRender.form(
                    .method(.post), .action(SiteURL.campaignAction(id: campaign.id, action).href), .class("actions")
                ) {
                    CSRFField(token: viewer.csrfToken)
                    button(.type("submit"), .class("danger")) {
                        action == .delete ? "Delete the draft" : "Cancel the campaign"
                    }
                    a(.href(SiteURL.campaign(id: campaign.id).href)) {
                        action == .delete ? "Keep the draft" : "Keep the campaign"
                    }
                }
            }
        }.content
    }
}
