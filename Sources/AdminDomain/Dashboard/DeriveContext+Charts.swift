import Foundation

extension DeriveContext {
    func charts() -> [DashboardChart] {
        let users = tally.users
        let items = tally.items
        let subscriptions = tally.subscriptions
        let pushes = tally.pushes
        let updated = tally.updatedAt
        let counted = tally.countedAt
        let days = dailyDays.map(dayLabel)
        let weeks = weekStarts.map { "Week of " + dayLabel($0) }

        /// A chart over the window's days or weeks, the last of them still going on.
        func chart(
            _ axis: DashboardChart.Axis, _ id: DashboardChart.ID, _ title: String, _ kind: DashboardChart.Kind,
            _ valueLabel: String, _ series: [ChartSeries], _ note: String, _ asOf: Date
        ) -> DashboardChart {
            DashboardChart(
                id: id, title: title, kind: kind, axis: axis, valueLabel: valueLabel,
                labels: axis == .weeks ? weeks : days, series: series, note: note, asOf: asOf, lastIsPartial: true)
        }

        var sources = FoodSource.allCases.enumerated().map {
            ChartSeries(name: $0.element.label, values: daily(items.foodAddedBySource[$0.offset]))
        }
        let other = daily(items.foodAddedBySource[FoodSource.allCases.count])
        if other.contains(where: { $0 != 0 }) { sources.append(ChartSeries(name: "Other", values: other)) }
        let inForce = weekStarts.map { subscriptions.inForceChange.through(min($0 + 6, today), in: window) }

        return [
            chart(
                .days, .signUps, "Sign-ups per day", .bar, "New accounts",
                [ChartSeries(name: "Sign-ups", values: daily(users.signUps))],
                "Accounts created each UTC day that are not deleted.", updated),
            chart(
                .days, .activeUsers, "Active users per day", .line, "Users",
                [
                    ChartSeries(
                        name: "Active users",
                        values: dailyDays.map { day in window.index(day).map { activePerDay[$0] } ?? 0 })
                ],
                "Users with at least one activity event that UTC day.", updated),
            chart(
                .days, .itemsAdded, "Food items added per day by source", .stackedBar, "Items", sources,
                "Food items created each UTC day, deleted ones included, by how they were added.", updated),
            expiryStatus(updated),
            chart(
                .weeks, .foodWasted, "Food wasted per week", .bar, "Items",
                [ChartSeries(name: "Wasted", values: weekly(items.unconsumedFoodByExpiry, throughYesterday: true))],
                "Food items whose expiry date fell in the week (up to yesterday) without being marked consumed, "
                    + "unless deleted before that date.",
                updated),
            categories(
                .categories, "Food items by category", "Category", items.foodByCategory.byName(null: "(none)"),
                "Food items not deleted, by their category as the app stored it.", updated),
            categories(
                .storage, "Food items by storage", "Storage", items.foodByStorage.byName(null: "Not set"),
                "Food items not deleted, by where they are kept.", updated),
            categories(
                .documentTypes, "Documents by type", "Document type",
                Self.labelled(items.documentsByType.byName(null: "(none)"), DocumentType.self),
                "Documents not deleted, by type.", updated),
            chart(
                .weeks, .premiumUsers, "Premium users per week", .line, "Subscriptions",
                [ChartSeries(name: "Premium", values: inForce)],
                "Subscriptions in force (started, period not ended, not refunded) "
                    + "at the end of each week, or now for this week.",
                counted),
            chart(
                .weeks, .upgrades, "Upgrades per week", .bar, "Subscriptions",
                [ChartSeries(name: "Upgrades", values: weekly(subscriptions.started))],
                "Subscriptions started in each week.", updated),
            revenue(updated),
            devices(counted),
            chart(
                .days, .pushes, "Campaign pushes per day", .line, "Pushes",
                [
                    ChartSeries(name: "Accepted", values: daily(pushes.accepted)),
                    ChartSeries(name: "Received", values: daily(pushes.received)),
                    ChartSeries(name: "Opened", values: daily(pushes.opened)),
                ],
                "Accepted by the push services (as of the last full count); "
                    + "received and opened as the devices confirmed, each delivery once a day.",
                updated),
        ]
    }

    private func expiryStatus(_ asOf: Date) -> DashboardChart {
        let unreadable = tally.items.unreadableExpiry
        return DashboardChart(
            id: .expiryStatus, title: "Items by expiry status now", kind: .stackedBar, axis: .categories,
            valueLabel: "Items",
            labels: ["Expired", "Expiring soon (30 days)", "Safe"],
            series: [
                ChartSeries(name: "Food", values: tally.items.openFoodByExpiry.split(today: today)),
                ChartSeries(name: "Documents", values: tally.items.openDocumentsByExpiry.split(today: today)),
            ],
            note: "Items neither deleted nor consumed, by expiry date against today's UTC date."
                + (unreadable > 0 ? " \(unreadable.grouped) items with an unreadable expiry date are left out." : ""),
            asOf: asOf, labelsName: "Expiry status")
    }

    /// Stored keys counted by name, under the vocabulary's words; the tally's own names for
    /// none and for the rest stay as they are.
    static func labelled<Term: LabelledTerm>(_ counts: [String: Int], _: Term.Type) -> [String: Int] {
        var result: [String: Int] = [:]
        for (key, count) in counts {
            let known = key == DashboardScan.otherValues || key.hasPrefix("(")
            result[known ? key : Term.label(of: key), default: 0] += count
        }
        return result
    }

    private func categories(
        _ id: DashboardChart.ID, _ title: String, _ labelsName: String, _ counts: [String: Int],
        _ note: String, _ asOf: Date
    ) -> DashboardChart {
        let sorted = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        let shown = sorted.prefix(DashboardSnapshot.categoriesShown)
        var labels = shown.map(\.key)
        var values = shown.map(\.value)
        let rest = sorted.dropFirst(DashboardSnapshot.categoriesShown).reduce(0) { $0 + $1.value }
        if rest > 0 {
            labels.append(DashboardScan.otherValues)
            values.append(rest)
        }
        return DashboardChart(
            id: id, title: title, kind: .bar, axis: .categories, valueLabel: "Items", labels: labels,
            series: [ChartSeries(name: "Items", values: values)], note: note, asOf: asOf, labelsName: labelsName)
    }

    private func revenue(_ asOf: Date) -> DashboardChart {
        let sorted = tally.subscriptions.monthlyCents.sorted {
            $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key
        }
        let unreadable = tally.subscriptions.unreadableCurrency
        return DashboardChart(
            id: .revenue, title: "Monthly recurring revenue by currency", kind: .bar, axis: .categories, unit: .cents,
            valueLabel: "Per month", labels: sorted.map(\.key),
            series: [ChartSeries(name: "Per month", values: sorted.map { Int($0.value.rounded()) })],
            note:
                "Active subscriptions whose period has not ended: monthly prices, "
                + "and yearly ones divided by 12. Currencies are not converted."
                + (unreadable > 0 ? " \(unreadable.grouped) with an unreadable currency are left out." : ""),
            asOf: asOf, labelsName: "Currency")
    }

    private func devices(_ asOf: Date) -> DashboardChart {
        let counts = tally.devices.counts
        let platforms = Platform.allCases.map(\.rawValue) + (counts["other"] == nil ? [] : ["other"])
        let permissions =
            PushPermission.allCases.map(\.rawValue) + (counts.values.contains { $0["other"] != nil } ? ["other"] : [])
        return DashboardChart(
            id: .devices, title: "Devices by platform and push permission", kind: .stackedBar, axis: .categories,
            valueLabel: "Devices", labels: platforms.map { $0 == "other" ? "Other" : Platform.label(of: $0) },
            series: permissions.map { permission in
                ChartSeries(
                    name: permission == "other" ? "Other" : PushPermission.label(of: permission),
                    values: platforms.map { counts[$0]?[permission] ?? 0 })
            },
            note: "Every installed app the backend knows, by platform and the permission for notifications.",
            asOf: asOf,
            labelsName: "Platform")
    }
}
