import AdminDomain
import AdminWeb
import DemoData
import Foundation
import GRDB

/// Times what support's pages cost on a real database: each query and the page it feeds,
/// rendered to bytes, without HTTP. `panel-bench support` prints the figures.
public enum SupportBenchmark {
    public struct Figure: Sendable {
        public let name: String
        public let p50: Double
        public let p99: Double
        public let runs: Int
    }

    public struct Export: Sendable {
        public let rows: Int
        public let seconds: Double
        public let rssGrowthBytes: Int
        public let peakRSSBytes: Int
    }

    public static func run(database: PanelDatabase, iterations: Int, report: (String) -> Void) async throws -> (
        [Figure], Export
    ) {
        let directory = UserDirectory(database: database)
        let sources = PageRendering.Sources(database: database)
        // Sample users spread over the id range, outside the timed part.
        let maxID = try await database.read { db in try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM users") ?? 1 }
        let whaleID = DemoSeeder.whaleUserID
        let ids = (0..<iterations).map { _ in Int64.random(in: 1...maxID) }
        let sample: [(Int64, String)] = try await database.read { db in
            try ids.compactMap { id in
                try Row.fetchOne(
                    db, sql: "SELECT id, email FROM users WHERE id >= ? ORDER BY id LIMIT 1", arguments: [id]
                )
                .map { (try $0.decode(atIndex: 0), try $0.decode(atIndex: 1)) }
            }
        }
        var figures: [Figure] = []
        func measure(_ name: String, _ runs: Int, _ body: (Int) async throws -> Void) async throws {
            var times: [Double] = []
            for index in 0..<runs {
                let start = DispatchTime.now().uptimeNanoseconds
                try await body(index)
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            times.sort()
            let figure = Figure(
                name: name, p50: times[times.count / 2],
                p99: times[min(times.count - 1, Int(Double(times.count) * 0.99))],
                runs: runs)
            figures.append(figure)
            report(
                name.padding(toLength: 48, withPad: " ", startingAt: 0)
                    + String(format: "p50 %8.2f ms   p99 %8.2f ms   (%d runs)", figure.p50, figure.p99, runs))
        }

        try await measure("exact email lookup", sample.count) { index in
            _ = try await directory.search(UserSearchQuery(field: .email, text: sample[index].1.uppercased()))
        }
        try await measure("email prefix search (4 characters)", sample.count) { index in
            _ = try await directory.search(UserSearchQuery(field: .email, text: String(sample[index].1.prefix(4))))
        }
        try await measure("user id lookup", sample.count) { index in
            _ = try await directory.search(UserSearchQuery(field: .id, text: String(sample[index].0)))
        }
        try await measure("display name search (one page)", min(sample.count, 50)) { index in
            _ = try await directory.search(UserSearchQuery(field: .name, text: String(sample[index].1.prefix(3))))
        }
        // A name nobody has: the scan reads its whole budget (rows or time), folding each name.
        var noMatch: UserSearchResult?
        try await measure("display name search, no match", min(sample.count, 20)) { _ in
            noMatch = try await directory.search(UserSearchQuery(field: .name, text: "Zyxwvütsr Qponm"))
        }
        if let noMatch {
            let rows = noMatch.scanned ?? 0
            let end = noMatch.next == nil ? "all of them, no \"Look further\"" : "stopped on its budget"
            report("  it looked through \(rows) user ids: \(end)")
            // Its floor: SQLite reading the same rows and comparing ASCII-lowered names, no folding.
            try await measure("  its floor: the same rows, plain SQL lower()", min(sample.count, 20)) { _ in
                _ = try await database.read { db in
                    try Int.fetchOne(
                        db, sql: "SELECT COUNT(*) FROM users WHERE id > ? AND instr(lower(display_name), 'zyxwv') > 0",
                        arguments: [maxID - Int64(rows)])
                }
            }
        }
        try await measure("profile page, typical user", sample.count) { index in
            try await renderProfile(id: sample[index].0, sources: sources)
        }
        try await measure("profile page, 20,000-item user", min(iterations, 100)) { _ in
            try await renderProfile(id: whaleID, sources: sources)
        }
        try await measure("items page, 20,000-item user, expired", min(iterations, 100)) { _ in
            _ = try await PageRendering.userItems(userID: whaleID, query: ["state": "expired"], sources: sources)
        }
        // The reachability verdict of the heaviest user: what it reads beyond the profile
        // (reminders of 30 days, deliveries, holdouts) and its checklist, beside its floor, the
        // plain indexed count of the same user's reminders in the same kind of read.
        let verdictNow = Date()
        let whale = try await UserProfile.load(id: whaleID, database: database, now: verdictNow)
        try await measure("verdict, 20,000-item user (reads + checklist)", min(iterations, 100)) { _ in
            let evidence = try await database.read { db in
                try Reachability.evidence(userID: whaleID, now: verdictNow, in: db)
            }
            if let whale { _ = Reachability(profile: whale, evidence: evidence, now: verdictNow) }
        }
        try await measure("  its floor: COUNT of the user's reminders", min(iterations, 100)) { _ in
            _ = try await database.read { db in
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM reminders INDEXED BY reminders_user WHERE user_id = ?",
                    arguments: [whaleID])
            }
        }
        try await measure("reminders page, 20,000-item user, first", min(iterations, 100)) { _ in
            _ = try await PageRendering.userReminders(userID: whaleID, sources: sources)
        }
        try await measure("reminders page, 20,000-item user, sent, page 40", min(iterations, 100)) { _ in
            _ = try await PageRendering.userReminders(
                userID: whaleID, query: ["status": "sent", "page": "40"], sources: sources)
        }
        let lists = ActivityLists(database: database)
        // As a running panel has them from its refresher: the dashboard's counts, which a
        // list of a bucket alone shows (outside the timed part).
        await sources.dashboard.refresh(full: true)
        if let took = await sources.dashboard.timing.full {
            report("dashboard counted in full once in \(took) (the refresher's work, every 15 minutes)")
        }
        for bucket in ActivityBucket.allCases {
            try await measure("activity \(bucket.rawValue): first page + size", min(iterations, 50)) { _ in
                _ = try await PageRendering.activityList(query: ["bucket": bucket.rawValue], sources: sources)
            }
        }
        try await measure("activity inactive by sign-up: first page + size", min(iterations, 50)) { _ in
            _ = try await PageRendering.activityList(
                query: ["bucket": "inactive", "sort": "sign_up"], sources: sources)
        }
        try await measure("activity idle, premium, ios: first page + size", min(iterations, 20)) { _ in
            _ = try await PageRendering.activityList(
                query: ["bucket": "idle", "plan": "premium", "platform": "ios"], sources: sources)
        }
        // A filter almost nobody matches: the page reads on to its whole candidate budget.
        try await measure("activity sparse (active, suspended, premium)", min(iterations, 10)) { _ in
            _ = try await PageRendering.activityList(
                query: ["bucket": "active", "plan": "premium", "status": "suspended"], sources: sources)
        }

        // The export: every inactive user as CSV lines into a sink, memory sampled per chunk.
        let before = residentBytes()
        var peak = before
        var rows = 0
        let start = DispatchTime.now().uptimeNanoseconds
        try await lists.forEachChunk(ActivityListQuery(UserFilter(bucket: .inactive))) { users in
            var buffer = [UInt8]()
            for user in users { buffer += Array(PageRendering.exportLine(user).utf8) }
            rows += users.count
            peak = max(peak, residentBytes())
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let export = Export(rows: rows, seconds: seconds, rssGrowthBytes: peak - before, peakRSSBytes: peak)
        report(
            String(
                format: "export of the inactive list: %d rows in %.2f s = %.0f rows/s; "
                    + "resident memory grew by %.1f MB (peak %.1f MB)",
                rows, seconds, Double(rows) / seconds, Double(export.rssGrowthBytes) / 1e6, Double(peak) / 1e6))
        return (figures, export)
    }

    private static func renderProfile(id: Int64, sources: PageRendering.Sources) async throws {
        _ = try await PageRendering.profile(userID: id, sources: sources)
    }

    /// VmRSS from /proc, in bytes (0 where there is no /proc).
    static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kilobytes * 1024
    }
}
