import AdminDomain
import HTMLRender

struct CampaignListView: HTMLComponent {
    let model: CampaignListModel
    let viewer: Viewer

    var content: HTMLNode {
        PageLayout(pageTitle: "Campaigns", viewer: viewer, activeSection: .campaigns) {
            section(.class("panel")) {
                h1 { "Campaigns" }
                p { a(.href(SiteURL.newCampaign.href), .class("button")) { "Compose a campaign" } }
                if model.entries.isEmpty {
                    p(.class("muted")) { "No campaigns yet." }
                } else {
                    div(.class("table-wrap")) {
                        table(.class("data")) {
                            caption { "Newest first. Received and opened come from the apps' receipts." }
                            thead {
                                tr {
                                    th(.scope("col")) { "Campaign" }
                                    th(.scope("col")) { "Status" }
                                    th(.scope("col")) { "Created" }
                                    th(.scope("col"), .class("num")) { "Audience" }
                                    th(.scope("col"), .class("num")) { "Accepted" }
                                    th(.scope("col"), .class("num")) { "Received" }
                                    th(.scope("col"), .class("num")) { "Opened" }
                                }
                            }
                            tbody {
                                for campaign in model.entries {
                                    tr {
                                        td { a(.href(SiteURL.campaign(id: campaign.id).href)) { "#\(campaign.id) \(campaign.title)" } }
                                        td { CampaignStatusBadge(campaign: campaign) }
                                        td { campaign.createdAt }
                                        td(.class("num")) { campaign.status.known == .draft ? "–" : Format.grouped(campaign.totals.audience) }
                                        td(.class("num")) { Format.grouped(campaign.totals.accepted) }
                                        td(.class("num")) { Format.grouped(campaign.totals.received) }
                                        td(.class("num")) { Format.grouped(campaign.totals.opened) }
                                    }
                                }
                            }
                        }
                    }
                }
                if let before = model.nextBefore {
                    p { a(.href(SiteURL.campaigns(before: before).href)) { "Older campaigns" } }
                }
            }
        }.content
    }
}

/// A campaign's status as a word, with the reason when it stopped on its own.
struct CampaignStatusBadge: HTMLComponent {
    let campaign: CampaignRecord
    /// On the campaign's own page the live updates rewrite it, from the words it carries.
    var live = false

    var content: HTMLNode {
        let words = Attribute("data-words", CampaignStatus.allCases.map { "\($0.rawValue)=\(Self.word($0))" }.joined(separator: ";"))
        return element("span", [.class("badge status-\(campaign.status.known?.rawValue ?? "unknown")")] + (live ? [.id("status-badge"), words] : [])) {
            campaign.status.known.map(Self.word) ?? "unknown (\(campaign.status.storedText))"
        }
    }

    static func word(_ status: CampaignStatus) -> String {
        switch status {
        case .draft: "draft"
        case .materialising: "preparing the audience"
        case .sending: "sending"
        case .paused: "paused"
        case .cancelled: "cancelled"
        case .finished: "finished"
        }
    }
}
