import Foundation

extension DeriveContext {
    /// Cohorts of the 12 weeks before this one; week k of a cohort is the k-th week after
    /// the one its users signed up in.
    func cohorts() -> CohortTable {
        let thisWeek = Self.weekStart(today)
        let users = tally.users
        let starts = (1...CohortTable.weeksAfter).reversed().map { thisWeek - 7 * $0 }
        var members = [Int](repeating: 0, count: starts.count)
        var active = [[Int]](repeating: [Int](repeating: 0, count: CohortTable.weeksAfter), count: starts.count)
        let masks = starts.map { start in
            (1...CohortTable.weeksAfter).map {
                ActivityMask(from: start + 7 * $0, to: start + 7 * $0 + 6, window: window)
            }
        }
        let first = starts[0]
        for slot in 0..<users.slots.count {
            let signUp = users.signUp[slot]
            guard signUp != Int64.min else { continue }
            let offset = TimestampBytes.day(ofSeconds: signUp) - first
            guard offset >= 0, offset < 7 * starts.count else { continue }
            let cohort = offset / 7
            members[cohort] += 1
            for week in 0..<CohortTable.weeksAfter {
                if let mask = masks[cohort][week], mask.matches(tally.events.activeDays, slot: slot) {
                    active[cohort][week] += 1
                }
            }
        }
        return CohortTable(
            cohorts: starts.enumerated().map { index, start in
                CohortTable.Cohort(
                    weekStart: dayLabel(start), users: members[index],
                    shares: (0..<CohortTable.weeksAfter).map { week in
                        start + 7 * (week + 1) > today ? nil : share(active[index][week], of: members[index])
                    },
                    weekUnderWay: (0..<CohortTable.weeksAfter).first { week in
                        start + 7 * (week + 1) <= today && today < start + 7 * (week + 2)
                    })
            },
            asOf: tally.updatedAt)
    }

    func criteria() -> [SuccessCriterion] {
        let users = tally.users
        let items = tally.items
        var converted = 0
        var eligibleForConversion = 0
        var firstWeekItems = 0
        var eligibleForFirstWeek = 0
        var freeAtLimit = 0
        var premiumPastLimit = 0
        let quarter = Int64(90 * 86_400)
        let week = Int64(7 * 86_400)
        for slot in 0..<users.slots.count {
            let signUp = users.signUp[slot]
            if items.openItems[slot] >= 50 {
                if users.premium[slot] { premiumPastLimit += 1 } else { freeAtLimit += 1 }
            }
            guard signUp != Int64.min else { continue }
            if signUp <= nowSeconds - quarter {
                eligibleForConversion += 1
                let firstStart = tally.subscriptions.firstStart[slot]
                if firstStart != Int64.max, firstStart - signUp <= quarter { converted += 1 }
            }
            if signUp <= nowSeconds - week {
                eligibleForFirstWeek += 1
                firstWeekItems += Int(items.firstWeekItems[slot])
            }
        }
        let wau = active.week
        let (retained, eligible) = rollingRetention(days: 30)
        let sent = tally.reminders.sent.sum(from: today - 29, to: today, in: window)
        let failed = tally.reminders.failed.sum(from: today - 29, to: today, in: window)
        let updated = tally.updatedAt
        let counted = tally.countedAt
        return [
            SuccessCriterion(
                code: "SC-006", title: "Premium conversion within 3 months of sign-up", target: 0.05,
                value: share(converted, of: eligibleForConversion), format: .percent,
                detail:
                    "\(converted.grouped) of the \(eligibleForConversion.grouped) "
                    + "users who signed up at least 90 days ago started a subscription within 90 days",
                asOf: updated),
            SuccessCriterion(
                code: "SC-008", title: "Items tracked in a user's first week", target: 10,
                value: eligibleForFirstWeek == 0 ? nil : Double(firstWeekItems) / Double(eligibleForFirstWeek),
                format: .decimal,
                detail:
                    "\(firstWeekItems.grouped) items (food and documents, deleted ones included) "
                    + "added in the first 7 days by \(eligibleForFirstWeek.grouped) "
                    + "users who signed up at least 7 days ago",
                asOf: updated),
            SuccessCriterion(
                code: "SC-009", title: "Users active at least weekly", target: 0.70,
                value: share(wau, of: users.total), format: .percent,
                detail: "\(wau.grouped) of \(users.total.grouped) users were active in the last 7 days", asOf: updated),
            SuccessCriterion(
                code: "SC-011", title: "Reminder delivery success", target: 0.95, strictlyAbove: true,
                value: share(sent, of: sent + failed), format: .percent,
                detail:
                    "\(sent.grouped) sent and \(failed.grouped) failed "
                    + "of the reminders due on the last 30 days (today so far)",
                asOf: updated),
            SuccessCriterion(
                code: "SC-014", title: "30-day retention", target: 0.40, strictlyAbove: true,
                value: share(retained, of: eligible), format: .percent,
                detail:
                    "\(retained.grouped) of the \(eligible.grouped) "
                    + "users who signed up at least 30 days ago were active 30 days or more after signing up",
                asOf: counted),
            SuccessCriterion(
                code: "Limit", title: "Free users at the 50-item limit", target: nil,
                value: Double(freeAtLimit), format: .count,
                detail:
                    "Free users with 50 or more items neither deleted nor consumed; \(premiumPastLimit.grouped) "
                    + "premium users have 50 or more (they upgraded past the limit)",
                asOf: counted),
        ]
    }
}
