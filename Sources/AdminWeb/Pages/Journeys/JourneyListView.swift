import AdminDomain
import HTMLRender

struct JourneyListView: HTMLComponent {
    let model: JourneyListModel
    let viewer: Viewer

    var content: HTMLNode {
        PageLayout(pageTitle: "Journeys", viewer: viewer, activeSection: .journeys) {
            section(.class("panel")) {
                h1 { "Journeys" }
                p(.class("muted")) {
                    "A journey sends its message by itself, once, to each user who crosses its trigger: a win-back "
                        + "after days without opening the app, a premium subscription that will not renew, a new user "
                        + "with few items."
                }
                if model.mayWrite {
                    p { a(.href(SiteURL.newJourney.href), .class("button")) { "New journey" } }
                }
                if let notice = model.notice { p(.class("notice"), .role("status")) { notice.sentence } }
                if model.entries.isEmpty {
                    p(.class("muted")) { "No journeys yet." }
                } else {
                    DataTable(
                        caption:
                            "Newest first. Entered: users who entered, held out or not. Accepted and opened: devices, "
                            + "from the providers and the apps' receipts. "
                            + "Lift: the goal conversion of those sent the push minus the holdout's, shown once the "
                            + "journey's page has built its report.",
                        columns: [
                            .init("Journey"), .init("Trigger"), .init("Status"), .init("Entered", numeric: true),
                            .init("Accepted", numeric: true), .init("Opened", numeric: true),
                            .init("Lift (95% interval)"),
                        ],
                        rows: model.entries.map { entry in
                            let journey = entry.journey
                            return TableRow([
                                TableCell {
                                    a(.href(SiteURL.journey(id: journey.id).href)) {
                                        "#\(journey.id) "
                                        UserText(text: journey.displayName)
                                    }
                                },
                                TableCell(journey.rules?.trigger.sentence ?? "rules this panel cannot read"),
                                TableCell { JourneyStatusBadge(journey: journey) },
                                TableCell(Format.grouped(journey.entered)),
                                TableCell(Format.grouped(journey.campaign.totals.accepted)),
                                TableCell(Format.grouped(journey.campaign.totals.opened)),
                                TableCell(entry.report.map(Self.lift) ?? "—"),
                            ])
                        })
                }
            }
        }.content
    }

    /// "+2.1 points (−0.4 to +4.6)", or why there is none.
    static func lift(_ report: JourneyReport) -> String {
        guard let lift = report.total.lift else {
            return report.goal == nil ? "no goal" : "not enough judged entries yet"
        }
        return CampaignImpactView.interval(lift)
    }
}

/// A journey's status as a word.
struct JourneyStatusBadge: HTMLComponent {
    let journey: JourneyRecord
    /// On the journey's own page: the one badge with the id tests and scripts look for.
    var onPage = false

    var content: HTMLNode {
        let attributes: [Attribute] = onPage ? [.id("journey-status")] : []
        guard let status = journey.status else {
            return StatusBadge(unknown: journey.campaign.status.storedText, attributes: attributes).content
        }
        return StatusBadge(status, attributes: attributes).content
    }
}
