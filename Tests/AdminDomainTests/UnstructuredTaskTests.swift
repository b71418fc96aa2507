import Foundation
import TestSupport
import Testing

/// Every long-lived or fire-and-forget piece of work runs in the service group (a `Service`
/// or a child task of one, such as `BackgroundWork`'s jobs), so that a shutdown cancels and
/// awaits it. A bare `Task {`, `Task(` or `Task.detached` in `Sources` is refused unless it
/// is listed here, with how many such lines its file may hold and why.
@Suite(.timeLimit(.minutes(20))) struct UnstructuredTasksAreListed {
    /// Targets that are not the product, allowed whole.
    static let allowedTargets: [String: String] = [
        "panel-bench/": "the benchmarks run their drivers beside the code they measure and cancel them themselves",
        "PanelLoad/": "the load driver's requests, each awaited or cancelled by the driver",
        "PushFakes/": "the fake providers' servers for tests, stopped by the test that started them",
    ]

    /// File (under Sources) to the number of unstructured tasks it may start, and why each is
    /// one: a task that every requester awaits (single flight) ends with its requesters; a
    /// shield keeps a commit's result from being lost to a cancellation.
    static let allowed: [String: (count: Int, reason: String)] = [
        "PushClients/FCM/GoogleAccessTokens.swift": (1, "single flight: the token exchange every sender awaits"),
        "PushClients/APNs/APNsProviderTokens.swift": (
            1, "single flight: the signed provider token every sender awaits"
        ),
        "AdminWeb/Campaigns/CampaignProgressCache.swift": (
            1, "single flight: a campaign's counts read, awaited by every page asking"
        ),
        "AdminWeb/Journeys/JourneyReports.swift": (
            1, "single flight: a journey's report built once, awaited by every page asking"
        ),
        "AdminDomain/Dashboard/DashboardRefresher.swift": (
            1, "single flight: the count every refresh awaits (a replaced one is cancelled)"
        ),
        "AdminDomain/Reminders/ReminderHealthMonitor.swift": (1, "single flight: the refresh every caller awaits"),
        "AdminDomain/Impact/CampaignImpactTracker.swift": (1, "single flight: the refresh every caller awaits"),
        "AdminDomain/Database/GroupedWrites.swift": (
            1, "shield: a group's transaction carries other callers' writes, whoever of them was cancelled"
        ),
        "CampaignDispatch/CampaignDispatcher.swift": (
            3,
            "shields: a claim or a batch of outcomes committed, and the texts of claimed rows, "
                + "must reach the dispatcher even when it is cancelled"
        ),
    ]

    @Test func everyUnstructuredTaskInSourcesIsListedWithItsReason() throws {
        let sources = TestPaths.repositoryRoot.appendingPathComponent("Sources")
        let files =
            FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        let unstructured = try Regex(#"\bTask\s*(\{|\(|\.detached)"#)
        var found: [String: [String]] = [:]
        for file in files {
            let path = file.path.replacingOccurrences(of: sources.path + "/", with: "")
            if Self.allowedTargets.keys.contains(where: path.hasPrefix) { continue }
            let lines = try String(contentsOf: file, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") { continue }
                if code.contains(unstructured) { found[path, default: []].append("\(path):\(index + 1): \(code)") }
            }
        }
        var refused: [String] = []
        for (path, sites) in found.sorted(by: { $0.key < $1.key }) where sites.count > (Self.allowed[path]?.count ?? 0)
        {
            refused.append(contentsOf: sites)
        }
        let stale = Self.allowed.filter { (found[$0.key]?.count ?? 0) < $0.value.count }.keys.sorted()
        #expect(files.count > 250, "the sources were found")
        #expect(
            refused.isEmpty,
            """
            a bare Task outside the service group: submit it to BackgroundWork, make it a child task of a Service, \
            or list it here with its reason:
            \(refused.joined(separator: "\n"))
            """)
        #expect(stale.isEmpty, "listed but no longer there (lower the count): \(stale)")
    }
}
