import AdminDomain
import HTMLRender

/// A campaign launched in the dashboard's range, with its report when there is one.
struct DashboardCampaign {
    let campaign: CampaignRecord
    let impact: CampaignImpact?
    /// Frozen with nobody drawn: no report will come.
    var nobodyDrawn = false
}

/// The range's campaigns: who they reached, how many opened, and what they changed.
struct DashboardCampaigns: HTMLComponent {
    let campaigns: [DashboardCampaign]
    let range: DashboardRange
    let viewer: Viewer
    /// Active journeys: they send every day, whatever the range.
    var journeys: [JourneyRecord] = []
    /// Campaigns and journeys whose recipients turned pushes off more than their baseline beyond chance.
    var costlyPushes: [(id: Int64, name: String, journey: Bool)] = []

    var content: HTMLNode {
        section(.class("panel"), .id("campaigns")) {
            h2 { "Campaigns" }
            if !costlyPushes.isEmpty {
                // Journeys' pages are open to every role; campaigns' to those who manage them.
                let campaignLinks = viewer.identity.role.may(.manageCampaigns)
                div(.class("notice error"), .role("alert"), .id("costly-pushes")) {
                    p {
                        "Recipients turned pushes off after a push more than their holdout or the global control "
                            + "group, beyond chance:"
                    }
                    ul {
                        for push in costlyPushes {
                            li {
                                let label = "\(push.journey ? "Journey" : "Campaign") #\(push.id) "
                                if push.journey || campaignLinks {
                                    a(
                                        .href(
                                            (push.journey
                                                ? SiteURL.journey(id: push.id) : SiteURL.campaign(id: push.id)).href
                                                + "#push-cost")
                                    ) {
                                        label
                                        UserText(text: push.name)
                                    }
                                } else {
                                    label
                                    UserText(text: push.name)
                                }
                            }
                        }
                    }
                }
            }
            if campaigns.isEmpty {
                p(.class("muted")) { "No campaign was launched in the last \(range.days) days." }
            } else {
                let links = viewer.identity.role.may(.manageCampaigns)
                DataTable(
                    caption: "Campaigns launched in the last \(range.days) days (20 at most, newest first)",
                    columns: [
                        DataTable.Column("Campaign"), DataTable.Column("Launched (UTC)"),
                        DataTable.Column("Recipients", numeric: true),
                        DataTable.Column("Holdout", numeric: true), DataTable.Column("Open rate", numeric: true),
                        DataTable.Column("Goal"),
                        DataTable.Column("Lift, points (95% interval)"),
                    ], rows: campaigns.map { row(for: $0, links: links) })
                details(.class("definition")) {
                    summary { "Definition" }
                    p(.class("muted")) {
                        "Recipients and holdout are users drawn when the audience was frozen; the open rate is the "
                            + "recipients who opened the push. Lift: the recipients' goal conversion minus the "
                            + "holdout's, in points, with Newcombe's 95% interval."
                    }
                }
            }
            if !journeys.isEmpty {
                DataTable(
                    caption: "Active journeys (newest first): users entered so far, and pushes the providers accepted",
                    columns: [
                        DataTable.Column("Journey"), DataTable.Column("Status"),
                        DataTable.Column("Entered", numeric: true),
                        DataTable.Column("Sent (accepted)", numeric: true),
                    ],
                    rows: journeys.map { journey in
                        TableRow([
                            TableCell {
                                a(.href(SiteURL.journey(id: journey.id).href)) {
                                    UserText(text: "#\(journey.id) \(journey.displayName)")
                                }
                            },
                            TableCell { JourneyStatusBadge(journey: journey) },
                            TableCell(Format.grouped(journey.entered)),
                            TableCell(Format.grouped(journey.campaign.totals.accepted)),
                        ])
                    })
            }
        }
    }

    private func row(for entry: DashboardCampaign, links: Bool) -> TableRow {
        let campaign = entry.campaign
        let impact = entry.impact
        let name = "#\(campaign.id) \(campaign.displayName)"
        let lift = impact?.lift.map {
            "\(CampaignImpactView.interval($0)): "
                + "\($0.excludesZero ? ($0.lower > 0 ? "a lift" : "a drop") : "not distinguishable from no change")"
        }
        return TableRow([
            links
                ? TableCell { a(.href(SiteURL.campaign(id: campaign.id).href)) { UserText(text: name) } }
                : TableCell(name),
            TableCell(campaign.launchedAt?.text ?? ""),
            TableCell(impact.map { Format.grouped($0.recipients.users) } ?? "—"),
            TableCell(impact.map { Format.grouped($0.holdout.users) } ?? "—"),
            TableCell(Format.percent(impact?.recipients.openRate)),
            TableCell(
                campaign.experiment.goal.map {
                    "\($0.label), within \(Format.count(campaign.experiment.goalDays, "day", "days"))"
                } ?? "none"),
            TableCell(
                lift
                    ?? (impact == nil
                        ? (entry.nobodyDrawn ? "no report: nobody was drawn" : "not computed yet") : "n/a")),
        ])
    }
}
