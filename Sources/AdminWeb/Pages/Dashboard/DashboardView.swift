import AdminDomain
import Foundation
import HTMLRender

struct DashboardView: HTMLComponent {
    let model: DashboardModel
    let viewer: Viewer

    var content: HTMLNode {
        let stats = model.stats
        return PageLayout(pageTitle: "Dashboard", viewer: viewer, activeSection: .dashboard) {
            h1 { "Dashboard" }
            p(.class("muted")) {
                "Figures as of "
                time(.datetime(SQLiteTime.string(stats.computedAt).replacingOccurrences(of: " ", with: "T") + "Z")) {
                    SQLiteTime.string(stats.computedAt) + " UTC"
                }
                "; recomputed at most every \(Int(model.maxAge / 60)) minutes."
            }
            div(.class("stat-grid")) {
                StatCard(label: "Total users", value: Format.grouped(stats.totalUsers),
                         detail: "Accounts not deleted, \(Format.grouped(stats.suspendedUsers)) of them suspended")
                StatCard(label: "Active users (7 days)", value: Format.grouped(stats.activeUsers7Days),
                         detail: "\(Format.percent(stats.totalUsers == 0 ? nil : Double(stats.activeUsers7Days) / Double(stats.totalUsers))) of users opened the app in the last 7 days")
                StatCard(label: "Items tracked", value: Format.grouped(stats.itemsTracked),
                         detail: "\(Format.grouped(stats.foodItems)) food items and \(Format.grouped(stats.documents)) documents, not deleted")
                StatCard(label: "Premium conversion", value: Format.percent(stats.premiumConversion),
                         detail: "\(Format.grouped(stats.premiumUsers)) premium of \(Format.grouped(stats.totalUsers)) users")
            }
            section(.class("panel")) {
                h2 { "Sign-ups per day" }
                BarChart(caption: "New accounts per UTC day, last 30 days",
                         bars: stats.signUpsPerDay.map { .init(label: $0.day, value: $0.count) })
                details {
                    summary { "The numbers behind the chart" }
                    DataTable(caption: "Sign-ups per UTC day, newest first",
                              columns: [.init("Day"), .init("Sign-ups", numeric: true)],
                              rows: stats.signUpsPerDay.reversed().map { [$0.day, Format.grouped($0.count)] })
                }
            }
        }.content
    }
}
