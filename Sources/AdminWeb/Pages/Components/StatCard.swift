import HTMLRender

/// One headline number with a label and a line of context.
struct StatCard: HTMLComponent {
    let label: String
    let value: String
    let detail: String

    var content: HTMLNode {
        section(.class("stat-card")) {
            h2 { label }
            p(.class("stat-value")) { value }
            p(.class("stat-detail")) { detail }
        }
    }
}
