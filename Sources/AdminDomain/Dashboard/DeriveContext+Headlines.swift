import Foundation

extension DeriveContext {
    func headlines(range: DashboardRange) -> [DashboardFigure] {
        let users = tally.users, items = tally.items, days = range.days
        let then = today - days
        let since = "than \(days) days before"
        let updated = tally.updatedAt, counted = tally.countedAt

        let usersThen = users.signUps.through(then, in: window) + users.unreadableSignUps
        let itemsThen = items.created.through(then, in: window) - items.deleted.through(then, in: window)
        let premiumThen = tally.subscriptions.inForceChange.through(then, in: window)

        let dau = active.today, dauBefore = active.yesterday
        let wau = active.week, wauBefore = active.weekBefore
        let mau = active.month, mauBefore = active.monthBefore

        let thisWeek = Self.weekStart(today)
        let signUpsToday = users.signUps.on(today, in: window), signUpsYesterday = users.signUps.on(today - 1, in: window)
        let signUpsWeek = users.signUps.sum(from: thisWeek, to: today, in: window)
        let signUpsLastWeek = users.signUps.sum(from: thisWeek - 7, to: thisWeek - 1, in: window)

        let households = tally.households
        let shared = min(users.householdMembers.values.lazy.filter { $0 > 1 }.count, households.total)

        func figure(_ name: String, _ value: Double?, _ previous: Double?, _ format: FigureFormat = .count,
                    _ comparedWith: String? = nil, _ detail: String, _ asOf: Date, trend: Trend? = nil) -> DashboardFigure {
            DashboardFigure(name: name, value: value, previous: previous, format: format,
                            comparedWith: comparedWith ?? since, trend: trend, detail: detail, asOf: asOf)
        }
        return [
            figure("Total users", Double(users.total), Double(usersThen), .count, nil,
                   "Accounts not deleted, \(users.suspended.grouped) of them suspended", updated),
            figure("Active users (7 days)", Double(users.byActivity[.active] ?? 0), Double(wauBefore), .count, "than the 7 days before",
                   "Last active within 7 days, as the activity lists count", counted,
                   trend: Trend(now: Double(wau), basis: "users with activity events")),
            figure("Items tracked", Double(items.liveFood + items.liveDocuments), Double(itemsThen), .count, nil,
                   "\(items.liveFood.grouped) food items and \(items.liveDocuments.grouped) documents, not deleted", updated),
            figure("Premium conversion", share(users.premiumCount, of: users.total), share(premiumThen, of: usersThen), .percent, nil,
                   "\(users.premiumCount.grouped) premium users of \(users.total.grouped)", counted,
                   trend: Trend(now: share(tally.subscriptions.inForceChange.through(today, in: window), of: users.total),
                                basis: "subscriptions in force")),
            figure("Daily active users", Double(dau), Double(dauBefore), .count, "than yesterday",
                   "Users with any activity today (UTC)", updated),
            figure("Weekly active users", Double(wau), Double(wauBefore), .count, "than the 7 days before",
                   "Users active on any of the last 7 days", updated),
            figure("Monthly active users", Double(mau), Double(mauBefore), .count, "than the 30 days before",
                   "Users active on any of the last 30 days", updated),
            figure("Stickiness (DAU / MAU)", share(dau, of: mau), share(dauBefore, of: mauBefore), .percent,
                   "than the day and 30 days before", "Today's active users as a share of the month's", updated),
            figure("Sign-ups today", Double(signUpsToday), Double(signUpsYesterday), .count, "than all of yesterday",
                   "New accounts since midnight UTC, not deleted", updated),
            figure("Sign-ups this week", Double(signUpsWeek), Double(signUpsLastWeek), .count, "than all of last week",
                   "New accounts since Monday (UTC), not deleted", updated),
            figure("Households", Double(households.total), Double(households.created.through(then, in: window)), .count, nil,
                   "Households created in the app", counted),
            DashboardFigure(name: "Households with more than one member", value: share(shared, of: households.total),
                            previous: nil, format: .percent, comparedWith: nil,
                            detail: "\(shared.grouped) of \(households.total.grouped) households have two or more members (membership keeps no history)",
                            asOf: counted),
        ]
    }

    func retention() -> [DashboardFigure] {
        [7, 30, 90].map { days in
            let (retained, eligible) = rollingRetention(days: days)
            return DashboardFigure(
                name: "\(days)-day retention", value: share(retained, of: eligible), previous: nil, format: .percent,
                comparedWith: nil,
                detail: "\(retained.grouped) of the \(eligible.grouped) users who signed up at least \(days) days ago were active \(days) days or more after signing up",
                asOf: tally.countedAt)
        }
    }

    /// Users who signed up at least `days` ago, and those of them last active `days` or
    /// more after their sign-up.
    func rollingRetention(days: Int) -> (retained: Int, eligible: Int) {
        let users = tally.users, span = Int64(days) * 86_400
        var retained = 0, eligible = 0
        for slot in 0..<users.slots.count {
            let signUp = users.signUp[slot]
            guard signUp != Int64.min, signUp <= nowSeconds - span else { continue }
            eligible += 1
            let last = users.lastActive[slot]
            if last != Int64.min, last - signUp >= span { retained += 1 }
        }
        return (retained, eligible)
    }
}
