import AdminDomain
import HTMLRender

/// A launched campaign's counts, a progress bar and the funnel from accepted to opened.
/// campaign.js updates every `data-count` from the server-sent events.
struct CampaignProgressView: HTMLComponent {
    let progress: CampaignProgress

    static let rows: [(key: String, label: String, value: @Sendable (CampaignProgress) -> Int)] = [
        ("total", "Deliveries", { $0.total }),
        ("sent", "Sent (accepted, unknown or on their way)", { $0.sent }),
        ("accepted", "Accepted by the provider", { $0.accepted }),
        ("unknown", "Unknown (in flight at a stop)", { $0.unknown }),
        ("sending", "Sending now", { $0.sending }),
        ("queued", "Queued, due now", { $0.queued }),
        ("waiting", "Waiting (quiet hours, local time, scheduled, retry, the winner)", { $0.waiting }),
        ("heldForWinner", "of which the rest, waiting for the winner test's winner", { $0.heldForWinner }),
        ("cancelled", "Cancelled before sending", { $0.cancelled }),
        ("capped", "Not sent: frequency cap", { $0.capped }),
        ("excluded", "Not sent: no longer in the audience when due", { $0.excluded }),
        ("failed", "Failed", { $0.failed }),
        ("dead", "Dead tokens", { $0.dead }),
        ("received", "Received by devices", { $0.received }),
        ("opened", "Opened", { $0.opened }),
        ("ignoredReceipts", "Receipts ignored (for pushes never sent)", { $0.ignoredReceipts }),
    ]

    var content: HTMLNode {
        let settled = progress.total == 0 ? 0 : Double(progress.done) / Double(progress.total)
        return div(.class("campaign-progress"), .id("campaign-progress")) {
            // Sent, cancelled and waiting apart: "all settled" would hide how many went out.
            p {
                strong(Attribute("data-count", "sent")) { Format.grouped(progress.sent) }
                " sent, "
                strong(Attribute("data-count", "cancelled")) { Format.grouped(progress.cancelled) }
                " cancelled before sending, "
                strong(Attribute("data-count", "unsent")) { Format.grouped(progress.unsent) }
                " not sent (frequency cap, no longer in the audience, failed, dead tokens), "
                strong(Attribute("data-count", "pending")) { Format.grouped(progress.queued + progress.waiting) }
                " waiting, of "
                strong(Attribute("data-count", "total")) { Format.grouped(progress.total) }
                " deliveries."
            }
            element(
                "progress",
                [
                    .id("progress-bar"), Attribute("max", String(max(1, progress.total))),
                    .value(String(progress.done)),
                    .ariaLabel("Deliveries settled"),
                ]
            ) { Format.percent(settled) }
            DataTable(
                caption: "Deliveries by state", columns: [.init("State"), .init("Deliveries", numeric: true)],
                rows: Self.rows.map { row in
                    TableRow([
                        TableCell(row.label),
                        TableCell { span(Attribute("data-count", row.key)) { Format.grouped(row.value(progress)) } },
                    ])
                })
            h2 { "Funnel" }
            ol(.class("funnel")) {
                li {
                    "Accepted "
                    strong(Attribute("data-count", "accepted")) { Format.grouped(progress.accepted) }
                }
                funnelStep("Received", "received", progress.received, of: progress.accepted, "accepted")
                funnelStep("Opened", "opened", progress.opened, of: progress.received, "received")
            }
            if !progress.exclusionReasons.isEmpty {
                DataTable(
                    caption: "Not sent because a rule no longer held when due (the ten most common)",
                    columns: [.init("Reason"), .init("Deliveries", numeric: true)],
                    rows: progress.exclusionReasons.map { [$0.reason, Format.grouped($0.count)] })
            }
            if !progress.failureReasons.isEmpty {
                DataTable(
                    caption: "Failures by reason (the ten most common)",
                    columns: [.init("Reason"), .init("Deliveries", numeric: true)],
                    rows: progress.failureReasons.map { [$0.reason, Format.grouped($0.count)] })
            }
        }
    }

    static func rate(_ part: Int, of whole: Int) -> Double? {
        whole == 0 ? nil : Double(part) / Double(whole)
    }

    /// "Received 12 (34% of accepted)": a step's count and its share of the step before,
    /// each marked for campaign.js to update.
    private func funnelStep(_ label: String, _ key: String, _ count: Int, of previous: Int, _ previousName: String)
        -> HTMLNode
    {
        li {
            "\(label) "
            strong(Attribute("data-count", key)) { Format.grouped(count) }
            " ("
            span(Attribute("data-rate", key)) { Format.percent(Self.rate(count, of: previous)) }
            " of \(previousName))"
        }
    }
}
