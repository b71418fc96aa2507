import Foundation
import GRDB
import Testing

@testable import AdminDomain

/// Checks a snapshot against `ExpectedDashboard`, figure by figure and label by label.
struct DashboardComparison {
    let expected: ExpectedDashboard
    let snapshot: DashboardSnapshot

    func checkAll() throws {
        try checkSeries()
        try checkHeadlines()
        try checkRetentionAndCriteria()
    }

    private func values(_ id: DashboardChart.ID, _ series: Int = 0) -> [String: Int] {
        let chart = snapshot.chart(id)!
        return Dictionary(uniqueKeysWithValues: zip(chart.labels, chart.series[series].values))
    }

    /// The expected counts for the chart's own labels (a label SQL did not see is 0).
    private func expect(
        _ id: DashboardChart.ID, series: Int = 0, _ counts: [String: Int],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let chart = snapshot.chart(id)!
        let wanted = chart.labels.map { counts[$0] ?? 0 }
        #expect(
            chart.series[series].values == wanted, "\(id) \(chart.series[series].name)", sourceLocation: sourceLocation)
    }

    private func checkSeries() throws {
        let days = snapshot.chart(.signUps)!.labels
        #expect(days.count == 365 && days.last == expected.today)
        #expect(snapshot.chart(.foodWasted)!.labels.last == "Week of 2026-11-23" || expected.today != "2026-11-23")
        expect(.signUps, try expected.signUps())
        expect(.activeUsers, try expected.activeUsers())
        let sources = snapshot.chart(.itemsAdded)!.series.map(\.name)
        // The vocabulary's words, never the stored keys (issue 36).
        #expect(Array(sources.prefix(3)) == ["Typed in", "Barcode scan", "Photo"])
        for (index, source) in ["manual", "barcode", "photo"].enumerated() {
            expect(.itemsAdded, series: index, try expected.foodAdded(source: source))
        }
        let status = snapshot.chart(.expiryStatus)!
        let food = try expected.expiryStatus(table: "food_items")
        let documents = try expected.expiryStatus(table: "documents")
        #expect(status.series[0].values == food)
        #expect(status.series[1].values == documents)
        expect(.foodWasted, try expected.foodWastedByWeek())
        try expectCategories(
            .categories,
            "SELECT COALESCE(CAST(category AS TEXT), '(none)'), COUNT(*) "
                + "FROM food_items WHERE deleted_at IS NULL GROUP BY 1"
        )
        try expectCategories(
            .storage,
            "SELECT COALESCE(CAST(storage AS TEXT), 'Not set'), COUNT(*) "
                + "FROM food_items WHERE deleted_at IS NULL GROUP BY 1"
        )
        try expectCategories(
            .documentTypes,
            "SELECT COALESCE(CAST(doc_type AS TEXT), '(none)'), COUNT(*) "
                + "FROM documents WHERE deleted_at IS NULL GROUP BY 1",
            words: Self.documentWords)
        expect(.premiumUsers, try expected.premiumAtWeekEnds(snapshot.chart(.premiumUsers)!.labels))
        expect(.upgrades, try expected.upgradesByWeek())
        let revenue = try expected.monthlyRevenue()
        #expect(values(.revenue) == revenue)
        let devices = snapshot.chart(.devices)!
        let deviceCounts = try expected.counts(
            "SELECT platform || '/' || push_permission, COUNT(*) FROM devices GROUP BY 1")
        for (number, series) in devices.series.enumerated() {
            for (index, platform) in devices.labels.enumerated() {
                let key =
                    "\(Self.platformKeys[platform] ?? platform)/\(Self.permissionKeys[series.name] ?? series.name)"
                #expect(devices.series[number].values[index] == deviceCounts[key] ?? 0, "\(platform) \(series.name)")
            }
        }
        #expect(devices.series.flatMap(\.values).reduce(0, +) == deviceCounts.values.reduce(0, +))
        let pushes = try expected.pushes()
        expect(.pushes, series: 0, pushes.accepted)
        expect(.pushes, series: 1, pushes.received)
        expect(.pushes, series: 2, pushes.opened)
    }

    /// The top twelve by count (then by name), the rest added up as "(other values)".
    private func expectCategories(_ id: DashboardChart.ID, _ sql: String, words: [String: String] = [:]) throws {
        var named: [String: Int] = [:]
        for (key, count) in try expected.counts(sql) { named[words[key] ?? key, default: 0] += count }
        let counts = named.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        var labels = counts.prefix(12).map(\.key)
        var numbers = counts.prefix(12).map(\.value)
        let rest = counts.dropFirst(12).reduce(0) { $0 + $1.value }
        if rest > 0 {
            labels.append("(other values)")
            numbers.append(rest)
        }
        let chart = snapshot.chart(id)!
        #expect(chart.labels == labels, "\(id)")
        #expect(chart.series[0].values == numbers, "\(id)")
    }

    /// The words staff read for the app's keys, written here rather than taken from the panel.
    static let documentWords = [
        "passport": "Passport", "visa": "Visa", "drivers_license": "Driver's licence", "id_card": "ID card",
        "insurance": "Insurance", "membership": "Membership", "custom": "Custom type",
    ]
    static let platformKeys = ["iOS": "ios", "Android": "android", "Other": "other"]
    static let permissionKeys = [
        "Allowed": "granted", "Denied": "denied", "Not asked yet": "unknown", "Other": "other",
    ]

    private func figure(_ range: DashboardRange, _ name: String) -> DashboardFigure {
        snapshot.headlines[range]!.first { $0.name == name }!
    }

    private func share(_ part: Int, _ whole: Int) -> Double? { whole == 0 ? nil : Double(part) / Double(whole) }

    private func checkHeadlines() throws {
        let today = expected.today
        let total = try expected.int("SELECT COUNT(*) FROM users WHERE status <> 'deleted'")
        let premium = try expected.int("SELECT COUNT(*) FROM users WHERE status <> 'deleted' AND plan = 'premium'")
        let dau = try expected.distinctActive(from: today, to: today)
        let wau = try expected.distinctActive(from: try expected.date(today, plus: -6), to: today)
        let mau = try expected.distinctActive(from: try expected.date(today, plus: -29), to: today)
        // The earlier spans end at the same time of day as now: yesterday, 7 and 30 days back.
        let day = 86_400
        let dauBefore = try expected.distinctActive(
            fromDay: try expected.date(today, plus: -1), upToSecondsBeforeNow: day)
        let wauBefore = try expected.distinctActive(
            fromDay: try expected.date(today, plus: -13), upToSecondsBeforeNow: 7 * day)
        let mauBefore = try expected.distinctActive(
            fromDay: try expected.date(today, plus: -59), upToSecondsBeforeNow: 30 * day)
        let mauToYesterday = try expected.distinctActive(
            fromDay: try expected.date(today, plus: -30), upToSecondsBeforeNow: day)
        let monday = try String.fetchOne(expected.db, sql: "SELECT \(ExpectedDashboard.week("'\(today)'"))")!
        let signUpsToday = try expected.signUps(fromDay: today, upToSecondsBeforeNow: 0)
        let signUpsYesterday = try expected.signUps(
            fromDay: try expected.date(today, plus: -1), upToSecondsBeforeNow: day)
        let signUpsWeek = try expected.signUps(fromDay: monday, upToSecondsBeforeNow: 0)
        let signUpsLastWeek = try expected.signUps(
            fromDay: try expected.date(monday, plus: -7), upToSecondsBeforeNow: 7 * day)
        let households = try expected.int("SELECT COUNT(*) FROM households")
        let shared = try expected.int(
            """
            SELECT COUNT(*) FROM (SELECT household_id FROM users WHERE status <> 'deleted'
              AND typeof(household_id) = 'integer'
                                  GROUP BY household_id HAVING COUNT(*) > 1)
            """)
        // The activity lists' count, as of the last full count (as the card says).
        let active = try expected.int(
            "SELECT COUNT(*) FROM users WHERE status <> 'deleted' AND last_active_at >= ? AND last_active_at < ?",
            [
                SQLiteTime.string(snapshot.countedAt.addingTimeInterval(-7 * 86_400)),
                SQLiteTime.string(snapshot.countedAt.addingTimeInterval(86_400)),
            ])
        for range in DashboardRange.allCases {
            let then = try expected.date(today, plus: -range.days)
            let usersThen = try expected.usersThen(then)
            let checks: [(String, Double?, Double?)] = [
                ("Total users", Double(total), Double(usersThen)),
                (
                    "Items tracked", Double(try expected.itemsTracked(at: nil)),
                    Double(try expected.itemsTracked(at: then))
                ),
                (
                    "Premium conversion", share(premium, total),
                    share(try expected.subscriptionsInForce(on: then), usersThen)
                ),
                ("Daily active users", Double(dau), Double(dauBefore)),
                ("Weekly active users", Double(wau), Double(wauBefore)),
                ("Monthly active users", Double(mau), Double(mauBefore)),
                ("Stickiness (DAU / MAU)", share(dau, mau), share(dauBefore, mauToYesterday)),
                ("Sign-ups today", Double(signUpsToday), Double(signUpsYesterday)),
                ("Sign-ups this week", Double(signUpsWeek), Double(signUpsLastWeek)),
                (
                    "Households", Double(households),
                    Double(
                        try expected.int(
                            "SELECT COUNT(*) "
                                + "FROM households WHERE COALESCE(\(ExpectedDashboard.day("created_at")), '0000') <= ?",
                            [then]))
                ),
                ("Households with more than one member", share(min(shared, households), households), nil),
            ]
            #expect(snapshot.headlines[range]!.map(\.name) == checks.map(\.0))
            #expect(figure(range, "Weekly active users").detail.contains("count \(active.grouped) active users"))
            #expect(
                figure(range, "Premium conversion").trend?.now
                    == share(try expected.subscriptionsInForce(on: today), total))
            for (name, value, previous) in checks {
                #expect(figure(range, name).value == value, "\(range) \(name)")
                #expect(figure(range, name).previous == previous, "\(range) \(name) before")
            }
        }
    }

    private func checkRetentionAndCriteria() throws {
        for (index, days) in [7, 30, 90].enumerated() {
            let (retained, eligible) = try expected.rollingRetention(days: days)
            #expect(snapshot.retention[index].value == share(retained, eligible), "\(days)-day retention")
        }
        let thisMonday = try String.fetchOne(
            expected.db, sql: "SELECT \(ExpectedDashboard.week("'\(expected.today)'"))")!
        #expect(snapshot.cohorts.cohorts.count == 12)
        for (index, cohort) in snapshot.cohorts.cohorts.enumerated() {
            let start = try expected.date(thisMonday, plus: -7 * (12 - index))
            #expect(cohort.weekStart == start)
            let (users, active) = try expected.cohort(start: start)
            #expect(cohort.users == users, "cohort \(start)")
            for week in 0..<12 {
                let begun = try expected.date(start, plus: 7 * (week + 1)) <= expected.today
                #expect(
                    cohort.shares[week] == (begun ? share(active[week], users) : nil),
                    "cohort \(start) week \(week + 1)")
            }
        }
        let criteria = Dictionary(uniqueKeysWithValues: snapshot.criteria.map { ($0.code, $0) })
        let (converted, eligible) = try expected.conversionWithinQuarter()
        #expect(criteria["SC-006"]?.value == share(converted, eligible))
        let (items, newUsers) = try expected.firstWeekItems()
        #expect(criteria["SC-008"]?.value == (newUsers == 0 ? nil : Double(items) / Double(newUsers)))
        let total = try expected.int("SELECT COUNT(*) FROM users WHERE status <> 'deleted'")
        let wau = try expected.distinctActive(from: try expected.date(expected.today, plus: -6), to: expected.today)
        #expect(criteria["SC-009"]?.value == share(wau, total))
        let reminders = try Row.fetchOne(
            expected.db,
            sql: """
                SELECT COUNT(*) FILTER (WHERE status = 'sent'), COUNT(*) FILTER (WHERE status = 'failed') FROM reminders
                WHERE scheduled_for >= date(?, '-29 days') AND scheduled_for < ?
                  AND \(ExpectedDashboard.day("scheduled_for")) IS NOT NULL
                """, arguments: [expected.today, expected.now])!
        let sent: Int = reminders[0]
        let failed: Int = reminders[1]
        #expect(criteria["SC-011"]?.value == share(sent, sent + failed))
        let (retained, eligibleForMonth) = try expected.rollingRetention(days: 30)
        #expect(criteria["SC-014"]?.value == share(retained, eligibleForMonth))
        let freeAtLimit = try expected.usersAtTheLimit(plan: "free")
        let premiumPastLimit = try expected.usersAtTheLimit(plan: "premium")
        #expect(criteria["Limit"]?.value == Double(freeAtLimit))
        #expect(criteria["Limit"]?.detail.contains("\(premiumPastLimit.grouped) premium users") == true)
    }
}
