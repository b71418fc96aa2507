import HTMLRender

/// Previous and Next under a list, with where this page sits: "51–100 of 18,001" (exact),
/// "of about" (an estimate), or the range alone when no total is cheap. A link is absent
/// when there is no page that way, so the first page has no Previous.
struct Pager: HTMLComponent {
    /// How the list's total is known.
    enum Total: Equatable {
        case exact(Int)
        case about(Int)
        case unknown
    }

    /// How many rows come before the page, when known; with `shown`, the range.
    var offset: Int?
    let shown: Int
    var total: Total = .unknown
    var previous: String?
    var next: String?
    /// What the rows are, for the range sentence: "items", "campaigns".
    var noun = "rows"

    /// "51–100 of 18,001", or nil when the page shows nothing or its place is unknown.
    var range: String? {
        guard shown > 0, let offset else { return nil }
        let span = "\(Format.grouped(offset + 1))–\(Format.grouped(offset + shown))"
        switch total {
        case .exact(let count): return "\(span) of \(Format.grouped(count)) \(noun)"
        case .about(let count): return "\(span) of about \(Format.grouped(count)) \(noun)"
        case .unknown: return "\(noun.prefix(1).uppercased() + noun.dropFirst()) \(span)"
        }
    }

    var content: HTMLNode {
        // Nothing to say and nowhere to go: no empty landmark.
        if range == nil, previous == nil, next == nil { return .text("") }
        return nav(.class("pager"), .ariaLabel("Pages")) {
            if let range { p(.class("pager-range")) { range } }
            if let previous { a(.href(previous)) { "Previous page" } }
            if let next { a(.href(next)) { "Next page" } }
        }
    }
}
