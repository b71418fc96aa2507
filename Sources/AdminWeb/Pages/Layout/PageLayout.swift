import AdminDomain
import HTMLRender

/// The page shell: head, top bar with navigation and sign-out, and the page's content.
struct PageLayout: HTMLComponent {
    let pageTitle: String
    let viewer: Viewer?
    let activeSection: NavSection?
    let children: [HTMLNode]
    /// Extra lines for the head: a page's own script, a refresh for browsers without one.
    var headExtras: [HTMLNode] = []

    init(
        pageTitle: String, viewer: Viewer?, activeSection: NavSection? = nil, headExtras: [HTMLNode] = [],
        @HTMLBuilder content: () -> [HTMLNode]
    ) {
        self.pageTitle = pageTitle
        self.viewer = viewer
        self.activeSection = activeSection
        self.headExtras = headExtras
        self.children = content()
    }

    var content: HTMLNode {
        html(.lang("en")) {
            head {
                meta(.charset("utf-8"))
                meta(.name("viewport"), .content("width=device-width, initial-scale=1"))
                title { "\(pageTitle) · Expiry Tracker Admin" }
                link(.rel("stylesheet"), .href(SiteURL.stylesheet.path))
                link(.rel("icon"), .href(SiteURL.favicon.path))
                headExtras
            }
            body {
                a(.href("#main"), .class("skip-link")) { "Skip to the content" }
                header(.class("topbar")) {
                    a(.class("brand"), .href(SiteURL.dashboard.href)) { "Expiry Tracker Admin" }
                    if let viewer {
                        NavBar(active: activeSection, role: viewer.identity.role)
                        div(.class("account")) {
                            a(
                                .class("who"), .href(SiteURL.accountSessions().href),
                                .title(
                                    "Signed in as \(viewer.identity.email) (\(viewer.identity.role.rawValue)): your "
                                        + "sessions"
                                )
                            ) {
                                viewer.identity.email
                            }
                            form(.method(.post), .action(SiteURL.logout.href), .class("inline")) {
                                CSRFField(token: viewer.csrfToken)
                                button(.type("submit"), .class("link-button")) { "Sign out" }
                            }
                        }
                    }
                }
                mainElement(.class("page"), .id("main"), Attribute("tabindex", "-1")) {
                    if let banner = BannerMiddleware.current {
                        p(.class("banner"), .role("status")) { banner }
                    }
                    if viewer != nil, !ReminderAlertsMiddleware.current.isEmpty {
                        ReminderAlertBanner(alerts: ReminderAlertsMiddleware.current)
                    }
                    children
                }
            }
        }
    }
}
