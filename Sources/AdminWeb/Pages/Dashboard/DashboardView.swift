import AdminDomain
import Foundation
import HTMLRender

/// The dashboard: what is the same for everyone comes from the page cache (rendered once a
/// snapshot and range); the admins' refresh box and the range's links are added around it.
struct DashboardView: HTMLComponent {
    let model: DashboardModel
    let viewer: Viewer
    /// The rendered `DashboardBody` for this snapshot and range.
    let body: String

    var content: HTMLNode {
        // While a count an admin asked for is under way the page reloads itself to follow it.
        let follows = model.countProgress == .underWay
        return PageLayout(
            pageTitle: "Dashboard", viewer: viewer, activeSection: .dashboard,
            headExtras: follows ? [meta(Attribute("http-equiv", "refresh"), .content("2"))] : []
        ) {
            h1 { "Dashboard" }
            // Each section says when it was counted; this says how often.
            p(.class("muted")) {
                "New rows are added every \(Self.duration(model.refreshEvery)) and everything is counted in full every "
                    + "\(Self.duration(model.fullCountEvery)). Days and weeks are UTC, from Monday."
            }
            if let progress = model.countProgress {
                CountNotice(progress: progress, countedAt: model.snapshot.countedAt, took: model.refreshes?.timing.full)
            }
            SectionLinks()
            if let refreshes = model.refreshes {
                RefreshBox(refreshes: refreshes, csrfToken: viewer.csrfToken, range: model.range)
            }
            PeriodTabs(
                periods: DashboardRange.allCases.map { ("\($0.days) days", .dashboardRange($0), $0 == model.range) },
                extraClass: "dashboard-ranges")
            HTMLNode.unsafeRawHTML(body)
            DashboardCampaigns(
                campaigns: model.campaigns, range: model.range, viewer: viewer, journeys: model.journeys,
                costlyPushes: model.costlyPushes)
        }.content
    }

    static func duration(_ seconds: TimeInterval) -> String {
        seconds < 120 ? "\(Int(seconds)) s" : "\(Int(seconds / 60)) minutes"
    }
}

/// "2026-11-22 09:14:03 UTC" as a `time` element.
struct AsOfTime: HTMLComponent {
    let date: Date

    var content: HTMLNode {
        let text = SQLiteTime.string(date)
        // The day and the clock each on one line (a browser may break a date at a hyphen),
        // free to wrap between them on a narrow screen.
        return time(.datetime(text.replacingOccurrences(of: " ", with: "T") + "Z")) {
            span(.class("nowrap")) { String(text.prefix(10)) }
            " "
            span(.class("nowrap")) { String(text.dropFirst(11)) + " UTC" }
        }
    }
}

/// For admins: the last failure (the figures shown are the last good ones), how long the
/// counts take, and a button to count everything again now.
struct RefreshBox: HTMLComponent {
    let refreshes: DashboardModel.Refreshes
    let csrfToken: String
    let range: DashboardRange

    var content: HTMLNode {
        section(.class("panel refresh-box"), .ariaLabel("Refreshes")) {
            if let failure = refreshes.failure {
                p(.class("error"), .role("alert")) {
                    "The last refresh failed at "
                    AsOfTime(date: failure.at)
                    ": "
                    failure.message
                    ". The figures below are from the last count that worked."
                }
            }
            p(.class("muted")) {
                "Last full count took \(refreshes.timing.full.map(Self.seconds) ?? "–"); last refresh of new rows "
                    + "\(refreshes.timing.incremental.map(Self.seconds) ?? "–")."
            }
            form(.method(.post), .action(SiteURL.dashboardRefresh.path)) {
                CSRFField(token: csrfToken)
                input(.type("hidden"), .name("range"), .value(String(range.days)))
                button(.type("submit")) { "Count everything again now" }
            }
        }
    }

    static func seconds(_ duration: Duration) -> String {
        let milliseconds = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        return String(format: "%.2f s", milliseconds / 1000)
    }
}

/// Where the full count an admin asked for has got to.
struct CountNotice: HTMLComponent {
    let progress: DashboardModel.CountProgress
    let countedAt: Date
    let took: Duration?

    var content: HTMLNode {
        switch progress {
        case .underWay:
            p(.class("notice"), .role("status")) {
                "A full count is under way: this page reloads every 2 seconds and shows its figures when it is done."
            }
        case .done:
            p(.class("notice"), .role("status")) {
                "The full count is done: everything below was counted at "
                AsOfTime(date: countedAt)
                took.map { " in " + RefreshBox.seconds($0) } ?? ""
                "."
            }
        case .failed:
            p(.class("notice error"), .role("alert")) {
                "The full count failed: the figures below are from the last count that worked."
            }
        }
    }
}

/// Jumps to the dashboard's parts: on a phone the charts are far below the figures.
struct SectionLinks: HTMLComponent {
    var content: HTMLNode {
        nav(.class("section-links"), .ariaLabel("Parts of the dashboard")) {
            a(.href("#vital-signs")) { "Vital signs" }
            a(.href("#success-criteria")) { "Success criteria" }
            a(.href("#retention")) { "Retention" }
            a(.href("#charts")) { "Charts" }
        }
    }
}
