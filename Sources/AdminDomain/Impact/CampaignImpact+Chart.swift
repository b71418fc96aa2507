import Foundation

extension CampaignImpact {
    /// Converted per 1,000 users of each group, added up day by day since the launch (hour by
    /// hour for a window of two days or less), up to the report's time: the gap between the
    /// two lines is the lift as it grew.
    public var conversionChart: DashboardChart {
        let hourly = days.count <= 2
        let elapsed = max(0, asOf.timeIntervalSince(windowStart))
        let shown = (hourly ? hours : days).filter { Double($0.index) * (hourly ? 3_600 : 86_400) <= elapsed }
        var recipientsSoFar = 0
        var holdoutSoFar = 0
        // From nothing at the launch, so that even the first hour draws a line.
        var recipientValues: [Int] = [0]
        var holdoutValues: [Int] = [0]
        for day in shown {
            recipientsSoFar += day.recipients
            holdoutSoFar += day.holdout
            recipientValues.append(Self.perThousand(recipientsSoFar, of: recipients.users))
            holdoutValues.append(Self.perThousand(holdoutSoFar, of: holdout.users))
        }
        return DashboardChart(
            id: .campaignConversions,
            title: "Converted per 1,000 users, by \(hourly ? "hour" : "day") since the launch", kind: .line,
            axis: .categories,
            valueLabel: "per 1,000 users",
            labels: ["Launch"] + shown.map { hourly ? "Hour \($0.index + 1)" : "Day \($0.index + 1)" },
            series: [
                ChartSeries(name: "Recipients", values: recipientValues),
                ChartSeries(name: "Holdout", values: holdoutValues),
            ],
            note: (hourly ? "Hour 1 is the hour from the launch" : "Day 1 is the 24 hours from the launch")
                + "; each user counts once, at their first goal event; "
                + "the holdout's line is what would have happened anyway.",
            asOf: asOf, labelsName: hourly ? "Hour since the launch" : "Day since the launch")
    }

    static func perThousand(_ count: Int, of users: Int) -> Int {
        users == 0 ? 0 : Int((Double(count) * 1_000 / Double(users)).rounded())
    }
}
