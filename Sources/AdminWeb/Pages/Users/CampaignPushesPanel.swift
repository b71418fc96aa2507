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
                div(.class("table-wrap")) {
                    table(.class("data")) {
                        caption { "The latest \(pushes.count), newest first; received and opened come from the app's receipts" }
                        thead {
                            tr {
                                th(.scope("col")) { "Campaign" }
                                th(.scope("col")) { "Device" }
                                th(.scope("col")) { "Delivery" }
                                th(.scope("col")) { "App says" }
                                th(.scope("col")) { "Updated (UTC)" }
                            }
                        }
                        tbody {
                            for push in pushes {
                                tr {
                                    td {
                                        if campaignLinks {
                                            a(.href(SiteURL.campaign(id: push.campaignID).href)) { "#\(push.campaignID) \(push.title)" }
                                        } else {
                                            "#\(push.campaignID) \(push.title)"
                                        }
                                    }
                                    td { "#\(push.deviceID)" }
                                    td { push.state.storedText }
                                    td { push.receipt >= 2 ? "opened" : push.receipt == 1 ? "received" : "nothing yet" }
                                    td { push.updatedAt }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
