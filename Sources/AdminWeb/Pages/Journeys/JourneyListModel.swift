import AdminDomain
import Foundation

/// The journeys, newest first, with what each did; the lift only where a report was built
/// lately (opening a journey builds it), so that the list never reads every entry.
struct JourneyListModel: PageModel {
    struct Entry: Sendable {
        let journey: JourneyRecord
        let report: JourneyReport?
    }

    let entries: [Entry]
    var notice: JourneyNotice?
    /// Marketing and admins may create; support reads.
    var mayWrite = false
    static let limit = 200

    struct Input {
        var notice: JourneyNotice?
        var mayWrite = false
    }

    static func load(_ source: JourneyPageModel.Source, _ input: Input) async throws -> JourneyListModel {
        var entries: [Entry] = []
        for journey in try await source.journeys.list(limit: limit) {
            entries.append(Entry(journey: journey, report: await source.reports.cached(journey.id)))
        }
        return JourneyListModel(entries: entries, notice: input.notice, mayWrite: input.mayWrite)
    }
}
