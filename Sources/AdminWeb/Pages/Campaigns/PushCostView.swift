import AdminDomain
import Foundation
import HTMLRender

/// What the pushes cost: of the recipients, and of the baseline (the holdout, or the global
/// control group's members in the audience), the share who turned something off within the
/// window (72 hours), and the difference with its 95% interval.
struct PushCostView: HTMLComponent {
    let cost: PushCost
    /// "campaign" or "journey", for the sentences.
    var kind = "campaign"
    /// How long after a push consent is read again.
    var window: TimeInterval = ConsentReadings.window

    var content: HTMLNode {
        section(.class("panel"), .id("push-cost")) {
            h2 { "What its pushes cost" }
            p(.class("muted")) { explanation }
            if cost.isEmpty {
                p(.id("push-cost-none")) {
                    "Nothing read yet: the first readings come \(Format.window(window)) after the first push went out."
                }
            } else {
                if cost.exceedsBaseline, let baseline = cost.baseline {
                    p(.class("notice error"), .role("alert"), .id("push-cost-flag")) {
                        "Recipients turned pushes off more than \(baseline.kind.label) beyond chance: the 95% interval "
                            + "of at least one difference below lies above zero."
                    }
                }
                DataTable(
                    caption: "Within \(Format.window(window)), share of each group",
                    columns: [
                        .init("Group"), .init("Users read", numeric: true),
                        .init(PushCost.Kind.marketing.label), .init(PushCost.Kind.push.label),
                        .init(PushCost.Kind.permission.label),
                    ],
                    rows: groups.map { name, group in
                        TableRow(
                            [TableCell(name), TableCell(Format.grouped(group.counted))]
                                + PushCost.Kind.allCases.map { kind in
                                    TableCell(share(group.turnedOff(kind), of: group.counted))
                                })
                    } + differenceRow)
                if cost.baseline == nil {
                    p(.class("muted")) {
                        "No baseline has been read yet (no holdout, and nobody of the audience in the global control "
                            + "group, or their \(Format.window(window)) have not passed): the recipients' shares stand alone."
                    }
                }
            }
        }
    }

    private var explanation: String {
        let after = Format.window(window)
        return "Providers do not report who turns pushes off. The panel keeps what each push's claim saw (consent "
            + "to campaign pushes, the push switch, a permitted device) and reads them again \(after) after the push "
            + "went out; for the holdout and the global control group's members in the audience, \(after) after the "
            + "\(kind)'s start. Accounts suspended or deleted meanwhile are left out."
    }

    private var groups: [(String, PushCost.Group)] {
        var rows: [(String, PushCost.Group)] = [("Recipients", cost.recipients)]
        if cost.holdout.users > 0 { rows.append(("Holdout", cost.holdout)) }
        if cost.control.users > 0 { rows.append(("Global control group", cost.control)) }
        return rows
    }

    private var differenceRow: [TableRow] {
        guard let baseline = cost.baseline else { return [] }
        return [
            TableRow(
                [TableCell("Difference against \(baseline.kind.label), points (95% interval)"), TableCell("")]
                    + PushCost.Kind.allCases.map { kind in
                        TableCell(cost.difference(kind).map(CampaignImpactView.interval) ?? "n/a")
                    })
        ]
    }

    private func share(_ count: Int, of total: Int) -> String {
        total == 0 ? "n/a" : "\(Format.percent(Double(count) / Double(total))) (\(Format.grouped(count)))"
    }
}
