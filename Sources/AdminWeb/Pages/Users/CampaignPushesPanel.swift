import AdminDomain
import HTMLRender

/// The campaign pushes a user's devices were sent, and what their app confirmed.
struct CampaignPushesPanel: HTMLComponent {
    let pushes: [CampaignPushOfUser]
    let campaignLinks: Bool

    var content: HTMLNode {
        section(.class("panel"), .id("campaign-pushes")) {
            h2 { "Campaign pushes" }
            if pushes.isEmpty {
                p(.class("muted")) { "No campaign push was sent to this user's devices." }
            } else {
                DataTable(
                    caption: "The latest \(pushes.count), newest first; received and opened come from the app's receipts",
                    headings: ["Campaign", "Device", "Delivery", "App says", "Updated (UTC)"],
                    rows: pushes.map { push in
                        TableRow([
                            TableCell {
                                if campaignLinks {
                                    a(.href(SiteURL.campaign(id: push.campaignID).href)) { "#\(push.campaignID) "; UserText(text: push.title) }
                                } else {
                                    "#\(push.campaignID) "
                                    UserText(text: push.title)
                                }
                            },
                            TableCell("#\(push.deviceID)"), TableCell(push.state.storedText),
                            TableCell(push.receipt >= 2 ? "opened" : push.receipt == 1 ? "received" : "nothing yet"),
                            TableCell(push.updatedAt),
                        ])
                    })
            }
        }
    }
}
