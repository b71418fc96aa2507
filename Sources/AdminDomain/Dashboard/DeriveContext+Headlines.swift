import Foundation

extension DeriveContext {
    func headlines(range: DashboardRange) -> [DashboardFigure] {
        let users = tally.users
        let items = tally.items
        let days = range.days
        let then = today - days
        let atLevel = comparison.againstLevel(daysAgo: days)
        let updated = tally.updatedAt
        let counted = tally.countedAt

        let usersThen = users.signUps.through(then, in: window) + users.unreadableSignUps
        let itemsThen = items.created.through(then, in: window) - items.deleted.through(then, in: window)
        let premiumThen = tally.subscriptions.inForceChange.through(then, in: window)

        let dau = active.today
        let wau = active.week
        let mau = active.month
        let signUps = signUpsIn([
            comparison.todaySoFar, comparison.yesterdayToTheSameTime,
            comparison.weekSoFar, comparison.lastWeekToTheSameTime,
        ])
        let listActive = users.byActivity[.active] ?? 0

        let households = tally.households
        let shared = min(users.householdMembers.values.lazy.filter { $0 > 1 }.count, households.total)

        func figure(
            _ name: String, _ value: Double?, _ previous: Double?, _ format: FigureFormat = .count,
            _ comparedWith: String, _ detail: String, _ asOf: Date, trend: Trend? = nil, line: Sparkline? = nil
        ) -> DashboardFigure {
            // A level's line ends at the figure itself, counted as the card counts it.
            var line = line
            if let count = line?.values.count, count > 0, line?.step == .day, format == .count, trend == nil {
                line?.values[count - 1] = value
            }
            return DashboardFigure(
                name: name, value: value, previous: previous, format: format,
                comparedWith: comparedWith, trend: trend, detail: detail, asOf: asOf, sparkline: line)
        }
        let rolling = self.rolling
        func weeklyPoints(_ counts: [Int]) -> Sparkline { Sparkline(values: counts.map(Double.init), step: .week) }
        return [
            figure(
                "Total users", Double(users.total), Double(usersThen), .count, atLevel,
                "Accounts not deleted, \(users.suspended.grouped) of them suspended", updated,
                line: levelLine(range) { Double(usersThrough($0)) }),
            figure(
                "Items tracked", Double(items.liveFood + items.liveDocuments), Double(itemsThen), .count, atLevel,
                "\(items.liveFood.grouped) food items and \(items.liveDocuments.grouped) documents, not deleted",
                updated,
                line: levelLine(range) {
                    Double(items.created.through($0, in: window) - items.deleted.through($0, in: window))
                }),
            figure(
                "Premium conversion", share(users.premiumCount, of: users.total), share(premiumThen, of: usersThen),
                .percent, atLevel,
                "\(users.premiumCount.grouped) premium users of \(users.total.grouped)", counted,
                trend: Trend(
                    now: share(tally.subscriptions.inForceChange.through(today, in: window), of: users.total),
                    basis: "subscriptions in force"),
                line: levelLine(range) {
                    share(tally.subscriptions.inForceChange.through($0, in: window), of: usersThrough($0))
                }),
            figure(
                "Daily active users", Double(dau), active.yesterdaySoFar.map(Double.init), .count,
                comparison.againstYesterday,
                "Users with an activity event today so far (UTC)", updated,
                line: levelLine(range) { day in window.index(day).map { Double(activePerDay[$0]) } }),
            figure(
                "Weekly active users", Double(wau), active.weekBefore.map(Double.init), .count,
                comparison.againstRangeBefore(7),
                "Users with an activity event on the last 7 days, today so far included. "
                    + "The activity lists go by each user's last-active time over the last 7 × 24 hours instead, "
                    + "and count \(listActive.grouped) active users at the last full count",
                updated, line: weeklyPoints(rolling.week)),
            figure(
                "Monthly active users", Double(mau), active.monthBefore.map(Double.init), .count,
                comparison.againstRangeBefore(30),
                "Users with an activity event on the last 30 days, today so far included", updated,
                line: weeklyPoints(rolling.month)),
            figure(
                "Stickiness (DAU / MAU)", share(dau, of: mau), ratio(active.yesterdaySoFar, active.monthToYesterday),
                .percent,
                "than yesterday's share up to the same time",
                "Today's active users as a share of the last 30 days' active users", updated,
                line: Sparkline(
                    values: zip(rolling.month.indices, rolling.month).map { index, month in
                        let day = today - 7 * (RollingActive.points - 1 - index)
                        return window.index(day).flatMap { share(activePerDay[$0], of: month) }
                    }, step: .week)),
            figure(
                "Sign-ups today", Double(signUps[0]), Double(signUps[1]), .count, comparison.againstYesterday,
                "New accounts since midnight UTC up to now, not deleted", updated,
                line: dailyLine(range, users.signUps)),
            figure(
                "Sign-ups this week", Double(signUps[2]), Double(signUps[3]), .count, comparison.againstLastWeek,
                "New accounts since Monday 00:00 UTC up to now, not deleted", updated,
                line: weeklyLine(range, users.signUps)),
            figure(
                "Households", Double(households.total), Double(households.created.through(then, in: window)), .count,
                atLevel,
                "Households created in the app", counted,
                line: levelLine(range) { Double(households.created.through($0, in: window)) }),
            DashboardFigure(
                name: "Households with more than one member", value: share(shared, of: households.total),
                previous: nil, format: .percent, comparedWith: nil,
                detail:
                    "\(shared.grouped) of \(households.total.grouped) "
                    + "households have two or more members (membership keeps no history)",
                asOf: counted),
        ]
    }

    /// Users not deleted whose sign-up time falls in each span, in one pass.
    private func signUpsIn(_ spans: [PeriodComparison.Span]) -> [Int] {
        var counts = [Int](repeating: 0, count: spans.count)
        for signUp in tally.users.signUp where signUp != Int64.min {
            for (index, span) in spans.enumerated() where span.contains(signUp) { counts[index] += 1 }
        }
        return counts
    }

    private func ratio(_ part: Int?, _ whole: Int?) -> Double? {
        guard let part, let whole else { return nil }
        return share(part, of: whole)
    }

    func retention() -> [DashboardFigure] {
        [7, 30, 90].map { days in
            let (retained, eligible) = rollingRetention(days: days)
            return DashboardFigure(
                name: "\(days)-day retention", value: share(retained, of: eligible), previous: nil, format: .percent,
                comparedWith: nil,
                detail:
                    "\(retained.grouped) of the \(eligible.grouped) users who signed up at least \(days) days ago "
                    + "were active \(days) days or more after signing up",
                asOf: tally.countedAt)
        }
    }

    /// Users who signed up at least `days` ago, and those of them last active `days` or
    /// more after their sign-up.
    func rollingRetention(days: Int) -> (retained: Int, eligible: Int) {
        let users = tally.users
        let span = Int64(days) * 86_400
        var retained = 0
        var eligible = 0
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
