import AdminDomain
import Foundation
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
                    for status in CampaignShownStatus.allCases {
                        " · "
                        filterLink(status, CampaignStatusBadge.word(status))
                    }
                }
                if let notice = model.notice { p(.class("notice"), .role("status")) { notice } }
                if let problem = model.problem {
                    p(.class("notice error"), .role("alert")) { problem }
                } else if model.entries.isEmpty {
                    p(.class("empty-list")) {
                        model.status.map { "No campaign is \(CampaignStatusBadge.word($0))." } ?? "No campaigns yet."
                    }
                } else {
                    DataTable(
                        caption: (model.order == .descending ? "Newest first. " : "Oldest first. ")
                            + "Confirmed: the devices to send to that the confirmation counted and the sender "
                            + "confirmed. "
                            + "Frozen: the deliveries the launch wrote, one per device (the frequency cap's included), "
                            + "from who was reachable then. "
                            + "Received and opened come from the apps' receipts. "
                            + "Turned off in \(Format.window(model.consentWindow)): the largest of three shares of the recipients (who turned "
                            + "campaign pushes off, turned push off, or lost every permitted device) beside the same "
                            + "share of its holdout or the global control group; flagged when any of the three is "
                            + "above it beyond chance (the campaign's page has all three).",
                        columns: [
                            .init("Campaign"), .init("Status"),
                            .init(
                                "Created (UTC)",
                                sort: .init(
                                    href: SiteURL.campaigns(status: model.status, order: model.order.reversed).href,
                                    current: model.order)),
                            .init("Confirmed (devices to send to)", numeric: true),
                            .init("Frozen (devices)", numeric: true),
                            .init("Accepted", numeric: true), .init("Received", numeric: true),
                            .init("Opened", numeric: true),
                            .init("Turned off in \(Format.window(model.consentWindow))"),
                        ],
                        rows: model.entries.map { campaign in
                            TableRow([
                                TableCell {
                                    a(.href(SiteURL.campaign(id: campaign.id).href)) {
                                        "#\(campaign.id) "
                                        UserText(text: campaign.displayName)
                                    }
                                },
                                TableCell { CampaignStatusBadge(campaign: campaign, now: model.now) },
                                TableCell(campaign.createdAt.text),
                                TableCell(campaign.confirmed.map { Format.grouped($0.devices) } ?? "–"),
                                TableCell(
                                    campaign.status.known == .draft ? "–" : Format.grouped(campaign.totals.audience)),
                                TableCell(Format.grouped(campaign.totals.accepted)),
                                TableCell(Format.grouped(campaign.totals.received)),
                                TableCell(Format.grouped(campaign.totals.opened)),
                                costCell(model.costs[campaign.id]),
                            ])
                        })
                    Pager(
                        offset: model.offset, shown: model.entries.count, total: .exact(model.total),
                        previous: model.previousBefore.map {
                            SiteURL.campaigns(before: $0, status: model.status, order: model.order).href
                        },
                        next: model.nextAfter.map {
                            SiteURL.campaigns(status: model.status, after: $0, order: model.order).href
                        },
                        noun: "campaigns")
                }
            }
        }.content
    }

    /// "0.4% vs 0.1% (the global control group)", flagged when the difference is beyond chance.
    private func costCell(_ cost: PushCost?) -> TableCell {
        guard let cost, cost.recipients.counted > 0 else { return TableCell("–") }
        let recipients = cost.recipients
        let any = recipients.counted == 0 ? 0 : PushCost.Kind.allCases.map(recipients.turnedOff).max() ?? 0
        let share = Format.percent(Double(any) / Double(recipients.counted))
        guard let baseline = cost.baseline else { return TableCell("\(share) (no baseline yet)") }
        let base = PushCost.Kind.allCases.map(baseline.group.turnedOff).max() ?? 0
        let baseShare = Format.percent(Double(base) / Double(baseline.group.counted))
        let words = "\(share) vs \(baseShare) (\(baseline.kind.label))"
        return TableCell {
            words
            if cost.exceedsBaseline {
                " "
                span(.class("badge tone-bad")) { "above baseline" }
            }
        }
    }

    private func filterLink(_ status: CampaignShownStatus?, _ label: String) -> HTMLNode {
        element(
            "a",
            [.href(SiteURL.campaigns(status: status).href)]
                + (status == model.status ? [Attribute("aria-current", "page")] : [])
        ) { label }
    }
}

/// A campaign's status as a word, with the reason when it stopped on its own.
struct CampaignStatusBadge: HTMLComponent {
    let campaign: CampaignRecord
    /// On the campaign's own page the live updates rewrite it, from the words it carries.
    var live = false

    /// When the page is built: a sending campaign whose planned time is ahead is `scheduled`.
    var now = Date()

    var content: HTMLNode {
        // The live updates rewrite its word and tone from what it carries.
        let words = Attribute(
            "data-words", CampaignShownStatus.allCases.map { "\($0.rawValue)=\(Self.word($0))" }.joined(separator: ";"))
        let tones = Attribute(
            "data-tones",
            CampaignShownStatus.allCases.map { "\($0.rawValue)=\($0.badgeTone.rawValue)" }.joined(separator: ";"))
        let attributes = live ? [.id("status-badge"), words, tones] : []
        guard let shown = campaign.shownStatus(now: now) else {
            return StatusBadge(unknown: campaign.status.storedText, attributes: attributes).content
        }
        return StatusBadge(shown, attributes: attributes).content
    }

    static func word(_ status: CampaignShownStatus) -> String { status.badgeText }
}
