import HTMLRender

/// The periods a page can show, as links: a period can be bookmarked and works without
/// JavaScript. The current one is marked.
struct PeriodTabs: HTMLComponent {
    /// Each period's words and address, in order, and whether it is the one shown.
    let periods: [(label: String, url: SiteURL, isCurrent: Bool)]
    var extraClass: String?

    var content: HTMLNode {
        nav(.class(extraClass.map { "range-selector \($0)" } ?? "range-selector"), .ariaLabel("Period shown")) {
            span { "Period:" }
            ul {
                for period in periods {
                    li {
                        if period.isCurrent {
                            a(.href(period.url.href), .ariaCurrent("true"), .class("current")) { period.label }
                        } else {
                            a(.href(period.url.href)) { period.label }
                        }
                    }
                }
            }
        }
    }
}
