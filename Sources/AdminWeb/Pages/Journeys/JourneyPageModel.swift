import AdminDomain
import Foundation

/// A journey's page: its definition, status and buttons, the dry run of the next 24 hours
/// (drafts and active journeys, computed in the background) and its report.
struct JourneyPageModel: PageModel {
    let journey: JourneyRecord
    var notice: JourneyNotice?
    var problems: [String] = []
    /// nil for a paused or ended journey, which nobody will enter tomorrow.
    var dryRun: JourneyDryRuns.State?
    var report: JourneyReport?
    /// Why each entry got its send hour, once any was planned at a usual hour.
    var timing: TimingSummary?
    /// Who turned campaign pushes, push or the permission off within 72 hours, beside a baseline.
    var cost: PushCost?
    var consentWindow: TimeInterval = ConsentReadings.window
    /// The buttons the viewer may press: none for support.
    var mayWrite = false

    struct Source: Sendable {
        let journeys: Journeys
        let dryRuns: JourneyDryRuns
        let reports: JourneyReports
        /// How long after a push consent is read again (72 hours; minutes in the demo).
        var consentWindow: TimeInterval = ConsentReadings.window
    }

    /// The buttons the status allows.
    var actions: [JourneyAction] {
        guard mayWrite, let status = journey.status else { return [] }
        return JourneyAction.allCases.filter { $0.allowed.contains(status) }
    }

    /// Users the page shows (the dry run's samples): each look is audit-logged.
    var shownUsers: [Int64] {
        if case .ready(let run, _)? = dryRun { return run.samples.map(\.userID) }
        return []
    }

    var dryRunPending: Bool {
        switch dryRun {
        case .queued?, .counting?: true
        default: false
        }
    }

    struct Input {
        let id: Int64
        var notice: JourneyNotice?
        var problems: [String] = []
        var mayWrite = false
    }

    static func load(_ source: Source, _ input: Input) async throws -> JourneyPageModel {
        let id = input.id
        guard let journey = try await source.journeys.find(id) else { throw PanelError.notFound("No journey #\(id).") }
        var model = JourneyPageModel(
            journey: journey, notice: input.notice, problems: input.problems, mayWrite: input.mayWrite)
        if journey.status == .draft || journey.status == .active {
            model.dryRun = await source.dryRuns.state(for: journey)
        }
        if journey.status != .draft {
            model.report = try await source.reports.report(id)
            model.timing = try await source.reports.sendHours(id)
            model.cost = try await source.reports.cost(id)
            model.consentWindow = source.consentWindow
        }
        return model
    }
}
