import Foundation

/// One range's figures as the records go by.
struct ReminderReportBuilder {
    let range: ReminderRange
    let now: Int64
    let from: Int64
    private let firstBucket: Int64
    private var total = ReminderAccumulator()
    private var byKind = Array(repeating: ReminderAccumulator(), count: ReminderRecord.Kind.allCases.count)
    /// By `days_before`, in the order first seen: a handful of values, searched in a row
    /// faster than hashed.
    private var daysBefore: [Int32] = []
    private var byDaysBefore: [ReminderAccumulator] = []
    private var byPlatforms = Array(
        repeating: ReminderAccumulator(), count: ReminderHealthReport.Platforms.allCases.count)
    private var points: [ReminderAccumulator]

    init(range: ReminderRange, now: Int64) {
        self.range = range
        self.now = now
        from = now - range.seconds
        let size = range.bucketSeconds
        firstBucket = (now >= 0 ? now / size : (now - size + 1) / size) * size - Int64(range.bucketCount - 1) * size
        points = Array(repeating: ReminderAccumulator(), count: range.bucketCount)
    }

    mutating func add(_ record: ReminderRecord, platforms: ReminderHealthReport.Platforms) {
        total.add(record, now: now)
        byKind[Int(record.kind.rawValue)].add(record, now: now)
        if let index = daysBefore.firstIndex(of: record.daysBefore) {
            byDaysBefore[index].add(record, now: now)
        } else {
            daysBefore.append(record.daysBefore)
            byDaysBefore.append(ReminderAccumulator())
            byDaysBefore[byDaysBefore.count - 1].add(record, now: now)
        }
        byPlatforms[Self.index(of: platforms)].add(record, now: now)
        if record.scheduled >= firstBucket {
            let index = Int((record.scheduled - firstBucket) / range.bucketSeconds)
            if index < points.count { points[index].add(record, now: now) }
        }
    }

    /// Its place in `Platforms.allCases`, without hashing: a month is a million records.
    private static func index(of platforms: ReminderHealthReport.Platforms) -> Int {
        switch platforms {
        case .iosOnly: 0
        case .androidOnly: 1
        case .both: 2
        case .none: 3
        }
    }

    func report(sc002: ReminderCriterion, successTarget: Double, points given: [ReminderHealthReport.Point]?)
        -> ReminderHealthReport
    {
        let figures = total.finished()
        return ReminderHealthReport(
            range: range, from: from, until: now, figures: figures,
            byKind: Dictionary(
                uniqueKeysWithValues: ReminderRecord.Kind.allCases.compactMap { kind in
                    byKind[Int(kind.rawValue)].figures.due > 0
                        ? (kind.text, byKind[Int(kind.rawValue)].finished()) : nil
                }),
            byDaysBefore: Dictionary(
                uniqueKeysWithValues: zip(daysBefore, byDaysBefore).map { days, figures in
                    (days == ReminderRecord.notANumber ? nil : Int(days), figures.finished())
                }),
            byPlatforms: Dictionary(
                uniqueKeysWithValues: ReminderHealthReport.Platforms.allCases.enumerated().compactMap {
                    index, platforms in
                    byPlatforms[index].figures.due > 0 ? (platforms, byPlatforms[index].finished()) : nil
                }),
            points: given
                ?? points.enumerated().map { index, point in
                    .init(
                        start: firstBucket + Int64(index) * range.bucketSeconds, partial: index == points.count - 1,
                        figures: point.finished())
                },
            sc002: sc002,  // SC-011: "more than 95%".
            sc011: ReminderCriterion(
                numerator: figures.sent, denominator: figures.sent + figures.failed, target: successTarget,
                strictlyAbove: true))
    }
}
