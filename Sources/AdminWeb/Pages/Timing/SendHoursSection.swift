import AdminDomain
import HTMLRender

/// Why each recipient got their send hour: users per local hour (usual-hour group and
/// control), where the usual hours came from, and how many were moved. The campaign's and
/// the journey's pages show it once anything was planned at a usual hour.
struct SendHoursSection: HTMLComponent {
    let summary: TimingSummary
    /// "campaign" or "journey", for the sentences.
    var kind = "campaign"

    var content: HTMLNode {
        let peak = max(1, (summary.usualPerHour + summary.controlPerHour).max() ?? 1)
        return section(.class("panel"), .id("send-hours")) {
            h2 { "Send hours" }
            p(.id("send-hours-totals")) {
                "\(Format.count(summary.usual, "user", "users")) at their usual hour; "
                "\(Format.count(summary.control, "user", "users")) in the control, sent at the \(kind)'s fixed time."
            }
            p(.id("send-hours-basis")) { "Where the usual hours came from: " + Self.basisWords(summary) + "." }
            p(.class("hint")) {
                "Own activity: at least \(UsualHour.ownDays) active days of their own in the last "
                "\(ActivityDays.window); peers: the usual hour of users of the same platform and locale; everyone: "
                "everyone's busiest hour; no data: nobody has an hour yet, so they go at the fixed time."
            }
            p(.id("send-hours-moved")) { Self.movedWords(summary) + "." }
            DataTable(
                caption: "Users per send hour; hours are each recipient's local time",
                columns: [
                    .init("Local hour"), .init("At their usual hour", numeric: true),
                    .init("Control (fixed time)", numeric: true),
                    .init("Bars: usual hour, control"),
                ],
                rows: (0..<24).map { hour in
                    let usual = summary.usualPerHour[hour]
                    let control = summary.controlPerHour[hour]
                    return TableRow(
                        [
                            TableCell(Self.clock(hour)), TableCell(Format.grouped(usual)),
                            TableCell(Format.grouped(control)),
                            Self.bars(usual: usual, control: control, peak: peak),
                        ],
                        id: "send-hour-\(hour)")
                })
        }
    }

    /// "own activity 812, peers 95, everyone 40, no data 0".
    static func basisWords(_ summary: TimingSummary) -> String {
        UsualHourBasis.allCases.map { "\(Self.word($0)) \(Format.grouped(summary.byBasis[$0] ?? 0))" }.joined(
            separator: ", ")
    }

    static func word(_ basis: UsualHourBasis) -> String {
        switch basis {
        case .own: "own activity"
        case .peers: "peers"
        case .everyone: "everyone"
        case .none: "no data"
        }
    }

    /// "Moved by quiet hours 120, at the fixed time by the deadline 3".
    static func movedWords(_ summary: TimingSummary) -> String {
        "Moved by quiet hours \(Format.grouped(summary.moved[.quiet] ?? 0)), at the fixed time by the deadline "
            + "\(Format.grouped(summary.moved[.deadline] ?? 0))"
    }

    static func clock(_ hour: Int) -> String { (hour < 10 ? "0" : "") + "\(hour):00" }

    /// Two bars scaled to the busiest hour; the numbers are in the cells beside them.
    /// Drawn in SVG: the pages' content security policy allows no inline style.
    static func bars(usual: Int, control: Int, peak: Int) -> TableCell {
        TableCell(class: "hour-bars") {
            element(
                "svg",
                [
                    Attribute("viewBox", "0 0 100 12"), Attribute("width", "120"), Attribute("height", "14"),
                    Attribute("aria-hidden", "true"), Attribute("focusable", "false"),
                ]
            ) {
                element(
                    "rect",
                    [
                        .class("bar s0"), Attribute("x", "0"), Attribute("y", "0"),
                        Attribute("width", String(usual * 100 / peak)),
                        Attribute("height", "5"),
                    ]
                ) {}
                element(
                    "rect",
                    [
                        .class("bar s1"), Attribute("x", "0"), Attribute("y", "7"),
                        Attribute("width", String(control * 100 / peak)),
                        Attribute("height", "5"),
                    ]
                ) {}
            }
        }
    }
}
