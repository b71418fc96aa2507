import Foundation
import GRDB

/// Who would enter a journey in the next 24 hours if nobody did anything meanwhile: the
/// users whose crossing falls in (now, now + 24 h], each classified as an entry would be:
/// already entered for that occurrence or refused re-entry, outside the conditions, no
/// device able to get it (by reason), held out, or to be sent. Computed in the background
/// (the subscription trigger reads the whole table, as its rolling pass does over a few
/// minutes).
public struct JourneyDryRun: Sendable, Equatable {
    public var crossing = 0
    public var alreadyEntered = 0
    public var outsideConditions = 0
    /// Users no device of whom could get it, by the first reason.
    public var exclusions: [String: Int] = [:]
    public var heldOut = 0
    public var toSend = 0
    /// Their devices.
    public var devices = 0
    public var samples: [SampleRecipient] = []
    public var elapsed: Duration = .zero

    public static let sampleSize = 20

    public init() {}

    public static func run(
        journey: Int64, audience: Audience, defaultTimeZone: String, now: Date, in database: PanelDatabase
    ) async throws -> JourneyDryRun {
        let started = ContinuousClock.now
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        var result = try await database.readAtLowPriority { db -> JourneyDryRun in
            var result = JourneyDryRun()
            guard let plan = try JourneyPlan.load(journey, in: db) else { return result }
            var crossings: [TriggerCrossing] = []
            switch plan.rules.trigger {
            case .subscriptionEnding(let days):
                var after: Int64?
                repeat {
                    let page = try SubscriptionPass.page(
                        days: days + 1, now: seconds, after: after, limit: 10_000, in: db)
                    // Ending after now: not yet ended.
                    crossings += page.crossings.filter { ($0.occurrence) > SQLiteTime.string(now) }
                    after = page.next
                } while after != nil
            default:
                var cursor: TriggerScan.Cursor?
                repeat {
                    let page = try TriggerScan.page(
                        plan.rules.trigger, previous: seconds, now: seconds + 86_400, after: cursor, limit: 5_000,
                        in: db)
                    crossings += page.crossings
                    cursor = page.next
                } while cursor != nil
            }
            result.crossing = crossings.count
            let seen = try db.cachedStatement(
                sql: """
                    SELECT EXISTS (SELECT 1 FROM panel_journey_entries
                                   WHERE journey_id = ? AND user_id = ? AND occurrence = ?) AS same,
                           (SELECT MAX(entered_at) FROM panel_journey_entries INDEXED BY panel_journey_entries_user
                            WHERE journey_id = ? AND user_id = ?) AS latest
                    """)
            var fresh: [TriggerCrossing] = []
            for crossing in crossings {
                let row = try Row.fetchOne(
                    seen, arguments: [plan.id, crossing.userID, crossing.occurrence, plan.id, crossing.userID])
                if row?["same"] == true {
                    result.alreadyEntered += 1
                    continue
                }
                if let last: String = row?["latest"] {
                    let at = min(SQLiteTime.seconds(last) ?? seconds, seconds)
                    guard let days = plan.rules.reentryDays, seconds + 86_400 - at >= Int64(days) * 86_400 else {
                        result.alreadyEntered += 1
                        continue
                    }
                }
                fresh.append(crossing)
            }
            let admissions = try JourneyAdmission.read(
                fresh, plan: plan, audience: audience, defaultTimeZone: defaultTimeZone, now: seconds, in: db)
            result.outsideConditions = fresh.count - admissions.count
            var sampled: [Int64] = []
            for admission in admissions {
                if let exit = admission.exit {
                    result.exclusions[exit, default: 0] += 1
                } else if admission.arm == CampaignDraw.Arm.holdout.stored {
                    result.heldOut += 1
                } else {
                    result.toSend += 1
                    result.devices += admission.devices.count
                    if sampled.count < sampleSize { sampled.append(admission.crossing.userID) }
                }
            }
            for id in sampled.sorted() {
                if let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT CAST(u.locale AS TEXT) AS locale,
                               CAST(u.timezone AS TEXT) AS timezone,
                               (SELECT CAST(platform AS TEXT) FROM devices INDEXED BY devices_user
                                WHERE user_id = u.id ORDER BY id LIMIT 1) AS platform
                        FROM users u WHERE u.id = ?
                        """, arguments: [id])
                {
                    result.samples.append(
                        SampleRecipient(
                            userID: id, platform: row["platform"] ?? "", locale: row["locale"] ?? "",
                            timeZone: row["timezone"] ?? ""))
                }
            }
            return result
        }
        result.elapsed = ContinuousClock.now - started
        return result
    }
}
