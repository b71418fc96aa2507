import HTMLRender

/// The links between one's own account pages.
struct AccountTabs: HTMLComponent {
    enum Tab: CaseIterable {
        case sessions, password, twoFactor

        var label: String {
            switch self {
            case .sessions: "Sessions"
            case .password: "Password"
            case .twoFactor: "Two-factor"
            }
        }

        /// The page's title and heading.
        var title: String {
            switch self {
            case .sessions: "Your sessions"
            case .password: "Change password"
            case .twoFactor: "Two-factor sign-in"
            }
        }

        var url: SiteURL {
            switch self {
            case .sessions: .accountSessions()
            case .password: .password
            case .twoFactor: .twoFactor
            }
        }
    }

    let active: Tab

    var content: HTMLNode {
        nav(.class("tabs"), .ariaLabel("Your account")) {
            for tab in Tab.allCases {
                if tab == active {
                    a(.href(tab.url.href), .ariaCurrent("page")) { tab.label }
                } else {
                    a(.href(tab.url.href)) { tab.label }
                }
            }
        }
    }
}
