import DemoData
import Foundation
import GRDB
import TestSupport
import Testing

@testable import AdminDomain

/// Every figure and series of the dashboard against plain SQL over the same rows, on a
/// seeded database with hostile rows and rows on the day and week boundaries added.
@Suite(.timeLimit(.minutes(20))) struct DashboardFigures {
    /// A Monday, 30 seconds after midnight UTC: today and this week have only just begun.
    static let now = SQLiteTime.date("2026-11-23 00:00:30")!

    /// Small reads with the receipts over their limit in memory (read along their time index
    /// instead), and the full count's own sizes (its receipts walked by key).
    @Test(arguments: [(97, 10), (50_000, KeyedReceipts.limit)])
    func everyFigureAndSeriesEqualsDirectSQL(rowsPerRead: Int, receiptsByKey: Int) async throws {
        let temp = try await TemporaryDatabase.seeded(users: 400, now: Self.now)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        try await BoundaryRows.add(to: temp.path, now: Self.now)
        let tally = try await DashboardScan(
            database: database, now: Self.now, rowsPerRead: rowsPerRead, receiptsByKey: receiptsByKey
        ).full()
        let snapshot = DashboardSnapshot(tally: tally, now: Self.now)
        try await DatabaseQueue(path: temp.path).read { db in
            try DashboardComparison(expected: ExpectedDashboard(db, now: Self.now), snapshot: snapshot).checkAll()
        }
        // Nothing above compared empty with empty.
        for chart in snapshot.charts {
            #expect(!chart.slice(for: .week).isEmpty || chart.axis == .weeks, "\(chart.id)")
        }
        #expect(
            snapshot.cohorts.cohorts.allSatisfy { $0.users > 0 } && snapshot.criteria.allSatisfy { $0.value ?? 0 > 0 })
        #expect(snapshot.retention.allSatisfy { $0.value ?? 0 > 0 })
    }

    /// A full count at `time` on a seeded database with rows around the clock (and around
    /// midnight and Monday), checked against plain SQL.
    static func countedAroundTheClock(at time: String, users: Int, boundaryRows: Bool) async throws -> DashboardSnapshot
    {
        let now = SQLiteTime.date(time)!
        let temp = try await TemporaryDatabase.seeded(users: users, now: now)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        if boundaryRows { try await BoundaryRows.add(to: temp.path, now: now) }
        try await ClockRows.add(to: temp.path, now: now)
        let snapshot = DashboardSnapshot(
            tally: try await DashboardScan(database: database, now: now, rowsPerRead: 97).full(), now: now)
        try await DatabaseQueue(path: temp.path).read { db in
            try DashboardComparison(expected: ExpectedDashboard(db, now: now), snapshot: snapshot).checkAll()
        }
        return snapshot
    }

    /// A Monday at 10:00: today and this week so far are ten hours old, and each is compared
    /// with the same ten hours of yesterday and of last Monday, by plain SQL over those spans.
    @Test func onAMondayAtTenEveryComparisonIsLikeForLike() async throws {
        let snapshot = try await Self.countedAroundTheClock(at: "2026-11-23 10:00:00", users: 300, boundaryRows: true)
        let words = Dictionary(uniqueKeysWithValues: snapshot.headlines[.month]!.map { ($0.name, $0.comparedWith) })
        #expect(words["Sign-ups today"] == "than yesterday up to 10:00 UTC")
        #expect(words["Daily active users"] == "than yesterday up to 10:00 UTC")
        #expect(words["Sign-ups this week"] == "than last Monday up to 10:00 UTC")
        #expect(words["Weekly active users"] == "than the 7 days before, up to the same time")
        #expect(words["Total users"] == "than at the end of 2026-10-24")
        #expect(snapshot.headlines[.month]!.allSatisfy { $0.previous != nil || $0.comparedWith == nil })
    }

    /// On a Thursday the week so far is compared with Monday to Thursday of last week.
    @Test func midweekTheWeekIsComparedWithTheSameDaysOfLastWeek() async throws {
        let snapshot = try await Self.countedAroundTheClock(at: "2026-11-26 15:30:00", users: 200, boundaryRows: false)
        let week = snapshot.headlines[.week]!.first { $0.name == "Sign-ups this week" }!
        #expect(week.comparedWith == "than last week from Monday to Thursday 15:30 UTC")
    }

    /// At 365 days bar charts are weekly: whole weeks from Monday and this week so far,
    /// each the sum SQL finds for its seven days.
    @Test func aYearOfDailyBarsIsShownByWeek() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 300, now: Self.now)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        let snapshot = DashboardSnapshot(
            tally: try await DashboardScan(database: database, now: Self.now).full(), now: Self.now)
        let year = snapshot.chart(.signUps)!.slice(for: .year)
        #expect(year.axis == .weeks)
        #expect(
            year.labels.count == 53 && year.labels.last == "Week of 2026-11-23"
                && year.labels.first == "Week of 2025-11-24")
        try await DatabaseQueue(path: temp.path).read { db in
            let day = ExpectedDashboard.day("created_at")
            let byWeek = try ExpectedDashboard(db, now: Self.now).counts(
                """
                SELECT 'Week of ' || \(ExpectedDashboard.week(day)), COUNT(*) FROM users
                WHERE status <> 'deleted' AND \(day) BETWEEN '2025-11-24' AND '2026-11-23' GROUP BY 1
                """)
            #expect(year.series[0].values == year.labels.map { byWeek[$0] ?? 0 })
            #expect(year.series[0].values.reduce(0, +) > 0)
        }
        #expect(snapshot.chart(.activeUsers)!.slice(for: .year).axis == .days, "a line keeps its days")
        #expect(snapshot.chart(.signUps)!.slice(for: .quarter).labels.count == 90)
    }

    @Test func theBoundaryRowsLandOnTheirOwnSideOfMidnightAndMonday() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 50, now: Self.now)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        let before = DashboardSnapshot(
            tally: try await DashboardScan(database: database, now: Self.now).full(), now: Self.now)
        try await BoundaryRows.add(to: temp.path, now: Self.now)
        let after = DashboardSnapshot(
            tally: try await DashboardScan(database: database, now: Self.now).full(), now: Self.now)
        func series(_ snapshot: DashboardSnapshot, _ id: DashboardChart.ID, _ label: String) -> Int {
            let chart = snapshot.chart(id)!
            return chart.series[0].values[chart.labels.firstIndex(of: label)!]
        }
        // Signed up at 23:59:59 on Sunday: yesterday and last week, not today or this week.
        #expect(series(after, .signUps, "2026-11-22") == series(before, .signUps, "2026-11-22") + 1)
        #expect(
            series(after, .signUps, "2026-11-23") == series(before, .signUps, "2026-11-23") + 1, "the one at 00:00:00")
        // Upgrades: one at Monday 00:00:00 (this week), one at Sunday 23:59:59 (last week).
        #expect(series(after, .upgrades, "Week of 2026-11-23") == series(before, .upgrades, "Week of 2026-11-23") + 1)
        #expect(series(after, .upgrades, "Week of 2026-11-16") == series(before, .upgrades, "Week of 2026-11-16") + 1)
        let dau = { (snapshot: DashboardSnapshot) in
            snapshot.headlines[.month]!.first { $0.name == "Daily active users" }!.value!
        }
        #expect(dau(after) == dau(before) + 1, "the event at 00:00:00 today counts today")
    }

    /// Rows arrive after a full count: the incremental refresh reads only them and ends
    /// where a new full count ends.
    @Test func anIncrementalRefreshEqualsAFullCount() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 300, now: Self.now)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        let tally = try await DashboardScan(database: database, now: Self.now, rowsPerRead: 50).full()
        // One second: no user's last activity crosses a bucket's edge in between.
        let later = Self.now.addingTimeInterval(1)
        try await BoundaryRows.addNewActivity(to: temp.path, at: later)
        try await DashboardScan(database: database, now: later, rowsPerRead: 50).incremental(tally)
        let incremental = DashboardSnapshot(tally: tally, now: later)
        let full = DashboardSnapshot(tally: try await DashboardScan(database: database, now: later).full(), now: later)
        #expect(incremental.undated == full.undated)
        try await DatabaseQueue(path: temp.path).read { db in
            try DashboardComparison(expected: ExpectedDashboard(db, now: later), snapshot: incremental).checkAll()
        }
    }

    /// The cut days are read on from where the last refresh stopped: an event stamped
    /// between the old cut and the new one counts, and so does one that arrives late with
    /// a time before the old cut; one after the new cut does not.
    @Test func anIncrementalRefreshMovesTheCutsOn() async throws {
        let now = SQLiteTime.date("2026-11-23 10:00:00")!
        let later = now.addingTimeInterval(60)
        let temp = try await TemporaryDatabase.seeded(users: 200, now: now)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        try await ClockRows.add(to: temp.path, now: now)
        let tally = try await DashboardScan(database: database, now: now, rowsPerRead: 97).full()
        try await BoundaryRows.queue(temp.path).write { db in
            for (email, stamp) in [
                ("between@example.com", "2026-11-22 10:00:30"), ("late@example.com", "2026-11-22 09:00:00"),
                ("after@example.com", "2026-11-22 10:01:01"), ("week@example.com", "2026-11-16 10:00:59"),
            ] {
                try db.execute(
                    sql: "INSERT INTO users (email, password_hash, created_at) VALUES (?, 'x', '2026-01-01 00:00:00')",
                    arguments: [email])
                try db.execute(
                    sql: "INSERT INTO activity_events (user_id, kind, created_at) VALUES (?, 'login', ?)",
                    arguments: [db.lastInsertedRowID, stamp])
            }
        }
        try await DashboardScan(database: database, now: later, rowsPerRead: 97).incremental(tally)
        let incremental = DashboardSnapshot(tally: tally, now: later)
        try await DatabaseQueue(path: temp.path).read { db in
            try DashboardComparison(expected: ExpectedDashboard(db, now: later), snapshot: incremental).checkAll()
        }
        let full = DashboardSnapshot(tally: try await DashboardScan(database: database, now: later).full(), now: later)
        #expect(incremental.headlines[.month]!.map(\.previous) == full.headlines[.month]!.map(\.previous))
    }

    @Test func anEmptyDatabaseHasNoRatesAndEmptyCharts() async throws {
        let temp = try TemporaryDatabase()
        defer { temp.remove() }
        try await DatabaseQueue(path: temp.path).write { db in
            for statement in try AppSchema.statements().tables { try db.execute(sql: statement) }
        }
        let database = try await PanelDatabase.open(path: temp.path)
        let snapshot = DashboardSnapshot(
            tally: try await DashboardScan(database: database, now: Self.now).full(), now: Self.now)
        for range in DashboardRange.allCases {
            for figure in snapshot.headlines[range]! where figure.format == .percent {
                #expect(figure.value == nil, "\(figure.name)")
            }
        }
        #expect(snapshot.charts.allSatisfy { $0.isEmpty })
        #expect(snapshot.criteria.filter { $0.code != "Limit" }.allSatisfy { $0.value == nil && $0.met == nil })
        #expect(snapshot.retention.allSatisfy { $0.value == nil })
        #expect(snapshot.cohorts.cohorts.allSatisfy { $0.users == 0 && $0.shares.allSatisfy { $0 == nil } })
        try await DatabaseQueue(path: temp.path).read { db in
            try DashboardComparison(expected: ExpectedDashboard(db, now: Self.now), snapshot: snapshot).checkAll()
        }
    }

    @Test func timestampsAreReadInTheBackendsTwoFormatsOnly() {
        func read(_ text: String) -> Int64? { Array(text.utf8).withUnsafeBytes { TimestampBytes.seconds($0) } }
        #expect(read("1970-01-01 00:00:00") == 0)
        #expect(read("1970-01-02") == 86_400)
        #expect(read("2026-11-23T00:00:30") == read("2026-11-23 00:00:30"))
        for bad in [
            "", "yesterday", "2026-13-01", "2026-11-23 24:00:00", "2026-11-23 10:00", "２０２６-11-23",
            "2026-11-23 00:00:30Z",
        ] {
            #expect(read(bad) == nil, "\(bad)")
        }
    }
}

extension DashboardSnapshot {
    /// The snapshot with every "as of" time taken out: what two ways of counting must share.
    var undated: DashboardSnapshot {
        var copy = self
        let zero = Date(timeIntervalSince1970: 0)
        copy.countedAt = zero
        copy.updatedAt = zero
        copy.headlines = headlines.mapValues {
            $0.map {
                var figure = $0
                figure.asOf = zero
                return figure
            }
        }
        copy.charts = charts.map {
            var chart = $0
            chart.asOf = zero
            return chart
        }
        copy.cohorts.asOf = zero
        copy.retention = retention.map {
            var figure = $0
            figure.asOf = zero
            return figure
        }
        copy.criteria = criteria.map {
            var criterion = $0
            criterion.asOf = zero
            return criterion
        }
        return copy
    }
}
