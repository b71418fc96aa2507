import Foundation

/// One range's figures as the records go by.
struct ReminderReportBuilder {
    let range: ReminderRange
    let now: Int64
    let from: Int64
    private let firstBucket: Int64
    private var total = ReminderAccumulator()
    private var byKind: [String: ReminderAccumulator] = [:]
    private var byDaysBefore: [Int?: ReminderAccumulator] = [:]
    private var byPlatforms: [ReminderHealthReport.Platforms: ReminderAccumulator] = [:]
    private var points: [ReminderAccumulator]

    init(range: ReminderRange, now: Int64) {
        self.range = range
        self.now = now
        from = now - range.seconds
        let size = range.bucketSeconds
        firstBucket = (now >= 0 ? now / size : (now - size + 1) / size) * size - Int64(range.bucketCount - 1) * size
        points = Array(repeating: ReminderAccumulator(), count: range.bucketCount)
    }

    mutating func add(_ record: ReminderRecord) {
        total.add(record, now: now)
        byKind[record.kind, default: .init()].add(record, now: now)
        byDaysBefore[record.daysBefore, default: .init()].add(record, now: now)
        byPlatforms[record.platforms, default: .init()].add(record, now: now)
        if record.scheduled >= firstBucket {
            let index = Int((record.scheduled - firstBucket) / range.bucketSeconds)
            if index < points.count { points[index].add(record, now: now) }
        }
    }

    func report(sc002: ReminderCriterion, successTarget: Double, points given: [ReminderHealthReport.Point]?) -> ReminderHealthReport {
        let figures = total.finished()
        return ReminderHealthReport(
            range: range, from: from, until: now, figures: figures,
            byKind: byKind.mapValues { $0.finished() }, byDaysBefore: byDaysBefore.mapValues { $0.finished() },
            byPlatforms: byPlatforms.mapValues { $0.finished() },
            points: given ?? points.enumerated().map { index, point in
                .init(start: firstBucket + Int64(index) * range.bucketSeconds, partial: index == points.count - 1, figures: point.finished())
            },
            sc002: sc002, sc011: ReminderCriterion(numerator: figures.sent, denominator: figures.sent + figures.failed, target: successTarget))
    }
}
