import AdminDomain
import HTMLRender

struct CampaignListView: HTMLComponent {
    let model: CampaignListModel
    let viewer: Viewer

    var content: HTMLNode {
        PageLayout(pageTitle: "Campaigns", viewer: viewer, activeSection: .campaigns) {
            section(.class("panel")) {
                h1 { "Campaigns" }
                p {
                    a(.href(SiteURL.newCampaign.href), .class("button")) { "Compose a campaign" }
                    " "
                    a(.href(SiteURL.testUsers().href)) { "Test users" }
                }
                nav(.ariaLabel("Filter by status"), .class("status-filters")) {
                    "Show: "
                    filterLink(nil, "all")
                    for status in CampaignStatus.allCases {
                        " · "
                        filterLink(status, CampaignStatusBadge.word(status))
                    }
                }
                if let notice = model.notice { p(.class("notice"), .role("status")) { notice } }
                if let problem = model.problem {
                    p(.class("notice error"), .role("alert")) { problem }
                } else if model.entries.isEmpty {
                    p(.class("muted")) { model.status == nil ? "No campaigns yet." : "No campaign is \(CampaignStatusBadge.word(model.status!))." }
                } else {
                    DataTable(
                        caption: "Newest first. Received and opened come from the apps' receipts.",
                        columns: [.init("Campaign"), .init("Status"), .init("Created (UTC)"), .init("Audience", numeric: true),
                                  .init("Accepted", numeric: true), .init("Received", numeric: true), .init("Opened", numeric: true)],
                        rows: model.entries.map { campaign in
                            TableRow([
                                TableCell { a(.href(SiteURL.campaign(id: campaign.id).href)) { "#\(campaign.id) "; UserText(text: campaign.displayName) } },
                                TableCell { CampaignStatusBadge(campaign: campaign) },
                                TableCell(campaign.createdAt),
                                TableCell(campaign.status.known == .draft ? "–" : Format.grouped(campaign.totals.audience)),
                                TableCell(Format.grouped(campaign.totals.accepted)),
                                TableCell(Format.grouped(campaign.totals.received)),
                                TableCell(Format.grouped(campaign.totals.opened)),
                            ])
                        })
                }
                if let before = model.nextBefore {
                    p { a(.href(SiteURL.campaigns(before: before, status: model.status).href)) { "Older campaigns" } }
                }
            }
        }.content
    }

    private func filterLink(_ status: CampaignStatus?, _ label: String) -> HTMLNode {
        element("a", [.href(SiteURL.campaigns(status: status).href)] + (status == model.status ? [Attribute("aria-current", "page")] : [])) { label }
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
