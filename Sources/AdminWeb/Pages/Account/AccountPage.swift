import HTMLRender

/// One of one's own account pages: its title as heading, the tabs between them, its content.
struct AccountPage: HTMLComponent {
    let tab: AccountTabs.Tab
    let viewer: Viewer
    let children: [HTMLNode]

    init(_ tab: AccountTabs.Tab, viewer: Viewer, @HTMLBuilder content: () -> [HTMLNode]) {
        self.tab = tab
        self.viewer = viewer
        self.children = content()
    }

    var content: HTMLNode {
        PageLayout(pageTitle: tab.title, viewer: viewer) {
            h1 { tab.title }
            AccountTabs(active: tab)
            children
        }.content
    }
}
