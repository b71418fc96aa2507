import AdminDomain
import HTMLRender

/// Quiet hours as campaign pushes respect them: what the sender cannot read is said, with
/// what is stored, rather than shown as if it worked.
struct QuietHoursText: HTMLComponent {
    let quietHours: QuietHours

    var content: HTMLNode {
        switch quietHours {
        case .none:
            .text("none")
        case .period(let start, let end):
            .text("\(start) to \(end)\(quietHours.crossesMidnight ? " (over midnight)" : "")")
        case .sameStartAndEnd(let time):
            .text("none (starts and ends at \(time))")
        case .unreadable(let start, let end):
            span {
                "unreadable (stored: "
                Self.stored(start)
                " to "
                Self.stored(end)
                "), treated as none"
            }
        }
    }

    private static func stored(_ value: String?) -> HTMLNode {
        guard let value else { return .text("nothing") }
        return span {
            "“"
            UserText(text: value)
            "”"
        }
    }
}
