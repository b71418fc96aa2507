import Foundation
import GRDB

/// What a campaign would do if launched now: its audience, who is left out and why, when
/// the pushes would land, and a few of the people who would get one.
public struct AudiencePreview: Sendable, Equatable {
    public var counts = AudienceCounts()
    /// Reachable devices whose push would wait for the end of the recipient's quiet hours.
    public var inQuietHours = 0
    /// Reachable users whose timezone is not one: they get the configured default.
    public var invalidTimeZones = 0
    /// Reachable users whose quiet hours do not read as 'HH:MM': counted as none.
    public var malformedQuietHours = 0
    /// Reachable users whose message would fill a placeholder group with its fallback
    /// (counted only for the groups asked for).
    public var fallbackUsers: [FallbackGroup: Int] = [:]
    /// The placeholders the message names, for saying which would fall back.
    public var placeholdersUsed: Set<String> = []
    /// Reachable users with no `notification_settings` row: counted with the schema's
    /// defaults (push on, campaign pushes consented to, no quiet hours).
    public var usersWithoutSettings = 0
    /// Reachable users the campaign's holdout draw takes, and their reachable devices: they
    /// get nothing (0 without a holdout).
    public var heldOutUsers = 0
    public var heldOutDevices = 0
    /// The devices the launch would send to: the reachable ones but the holdout's.
    public var devicesToSend: Int { counts.reachableDevices - heldOutDevices }
    /// Up to ten reachable users, lowest ids first.
    public var samples: [SampleRecipient] = []
    public var elapsed: Duration = .zero
    /// Which providers have no credentials here, in a sentence, when one has none: their
    /// devices are counted under `providerNotConfigured`.
    public var missingProviders: String?

    public init() {}

    mutating func add(_ other: AudiencePreview) {
        counts.reachableUsers += other.counts.reachableUsers
        counts.reachableDevices += other.counts.reachableDevices
        counts.devicesByGroup.merge(other.counts.devicesByGroup, uniquingKeysWith: +)
        counts.excludedDevices.merge(other.counts.excludedDevices, uniquingKeysWith: +)
        counts.excludedUsers.merge(other.counts.excludedUsers, uniquingKeysWith: +)
        inQuietHours += other.inQuietHours
        invalidTimeZones += other.invalidTimeZones
        malformedQuietHours += other.malformedQuietHours
        usersWithoutSettings += other.usersWithoutSettings
        heldOutUsers += other.heldOutUsers
        heldOutDevices += other.heldOutDevices
        fallbackUsers.merge(other.fallbackUsers, uniquingKeysWith: +)
        samples = Array((samples + other.samples).sorted { $0.userID < $1.userID }.prefix(AudiencePreview.sampleSize))
    }

    public static let sampleSize = 10
}

/// Placeholders whose values come from the same rows: a recipient without them gets the
/// fallbacks of the whole group.
public enum FallbackGroup: String, CaseIterable, Sendable, Hashable {
    /// `display_name`: no name, or only spaces.
    case name
    /// `expiring_count`, `first_expiring_item`, `days_left`: nothing expiring within 7 days.
    case items
    /// `expiring_documents`, `first_expiring_document`, `document_days_left`: no document
    /// expiring within 30 days.
    case documents

    public var placeholders: [String] {
        switch self {
        case .name: ["display_name"]
        case .items: ["expiring_count", "first_expiring_item", "days_left"]
        case .documents: ["expiring_documents", "first_expiring_document", "document_days_left"]
        }
    }

    /// The groups of the placeholders a message names.
    public static func used(by placeholders: Set<String>) -> Set<FallbackGroup> {
        Set(allCases.filter { group in group.placeholders.contains(where: placeholders.contains) })
    }
}

/// One user the campaign would reach, with what their message would be filled with.
public struct SampleRecipient: Sendable, Equatable {
    public let userID: Int64
    public let platform: String
    public let locale: String
    public let timeZone: String
}

extension Audience {
    /// Counted over user-id ranges, two at a time, each range its own short read: a page
    /// that shows `progress` never waits on a scan, and the backend never waits on us.
    public func preview(
        _ segment: CampaignSegment, schedule: CampaignSchedule, defaultTimeZone: String = "UTC",
        fallbacks: Set<FallbackGroup> = [], holdout: HoldoutDraw? = nil,
        in database: PanelDatabase, now: Date = Date(), ranges: Int = 16, parallel: Int = 2,
        progress: @escaping @Sendable (Double) async -> Void = { _ in }
    ) async throws -> AudiencePreview {
        let started = ContinuousClock.now
        let (first, last) = try await database.read { db -> (Int64, Int64) in
            let row = try Row.fetchOne(db, sql: "SELECT MIN(id) AS first, MAX(id) AS last FROM users")
            return ((row?["first"] as Int64?) ?? 0, (row?["last"] as Int64?) ?? -1)
        }
        var total = AudiencePreview()
        total.missingProviders = missingProvidersSentence
        guard last >= first else { return total }
        let span = (last - first) / Int64(max(1, ranges)) + 1
        let bounds = stride(from: first - 1, to: last, by: Int(span)).map { ($0, min(last, $0 + span)) }
        let sql = previewSQL(
            segment, schedule: schedule, defaultTimeZone: defaultTimeZone, fallbacks: fallbacks, now: now)
        try await withThrowingTaskGroup(of: AudiencePreview.self) { group in
            var next = 0
            var done = 0
            func start() {
                guard next < bounds.count else { return }
                let (after, upTo) = bounds[next]
                next += 1
                group.addTask {
                    try await Self.previewRange(sql, after: after, upTo: upTo, holdout: holdout, in: database)
                }
            }
            for _ in 0..<max(1, parallel) { start() }
            while let part = try await group.next() {
                total.add(part)
                done += 1
                await progress(Double(done) / Double(bounds.count))
                start()
            }
        }
        // A group asked for and never met counts zero, which the page says too.
        for group in fallbacks where total.fallbackUsers[group] == nil { total.fallbackUsers[group] = 0 }
        total.elapsed = ContinuousClock.now - started
        return total
    }

    /// The preview's two queries; `:after` and `:upTo` are bound per range, on the same text.
    struct PreviewSQL: Sendable {
        let rows: SQL
        /// The range's users over the frequency cap: the rows leave the cap out.
        let overCap: SQL
        let samples: SQL
    }

    func previewSQL(
        _ segment: CampaignSegment, schedule: CampaignSchedule, defaultTimeZone: String,
        fallbacks: Set<FallbackGroup> = [],
        now: Date
    ) -> PreviewSQL {
        let from = self.from(segment, now: now, extra: [SQLCondition("u.id > :after AND u.id <= :upTo")])
        var arguments: [String: DatabaseValue] = [:]
        arguments["sendAt"] = SQLiteTime.string(schedule.plannedAt.map { max($0, now) } ?? now).databaseValue
        arguments["localTime"] = schedule.localTime?.description.databaseValue ?? .null
        arguments["defaultZone"] = defaultTimeZone.databaseValue
        let today = SQLiteTime.dayString(daysSinceEpoch: Int64((now.timeIntervalSince1970 / 86_400).rounded(.down)))
        arguments["fallbackToday"] = today.databaseValue
        let reason = classification(now: now, withCap: false)
        // Each group's "no value" condition, the same rows `RecipientValues` reads; 0 when
        // the message does not name the group, so that a plain message costs nothing more.
        let noName = fallbacks.contains(.name) ? "(dn IS NULL OR trim(CAST(dn AS TEXT)) = '')" : "0"
        let noItems =
            fallbacks.contains(.items)
            ? """
            NOT EXISTS (SELECT 1 FROM food_items f INDEXED BY food_items_user
                        WHERE f.user_id = uid
                          AND f.deleted_at IS NULL
                          AND f.consumed_at IS NULL
                          AND f.expiry_date BETWEEN :fallbackToday
                            AND date(:fallbackToday, '+\(RecipientValues.expiringWithinDays) days'))
            AND NOT EXISTS (SELECT 1 FROM documents o INDEXED BY documents_user
                            WHERE o.user_id = uid
                              AND o.deleted_at IS NULL
                              AND o.expiry_date BETWEEN :fallbackToday
                                AND date(:fallbackToday, '+\(RecipientValues.expiringWithinDays) days'))
            """ : "0"
        let noDocuments =
            fallbacks.contains(.documents)
            ? """
            NOT EXISTS (SELECT 1 FROM documents o INDEXED BY documents_user
                        WHERE o.user_id = uid
                          AND o.deleted_at IS NULL
                          AND o.expiry_date BETWEEN :fallbackToday
                            AND date(:fallbackToday, '+\(RecipientValues.documentsWithinDays) days'))
            """ : "0"
        // One row per user and device, in user order, tallied in Swift (`PreviewTally`):
        // counting distinct users in SQL took two materialised copies and a sort per count.
        // The values of the text below, bound once with the rows' query (the samples' has none of them).
        let bound = SQL(sql: "", arguments: StatementArguments(arguments))
        let rows: SQL = """
            SELECT uid, reason, platform, provider,
                   CASE WHEN reason = 'reachable' AND qs IS NOT NULL AND qe IS NOT NULL
                             AND panel_due_at(:sendAt, tz, qs, qe, :localTime, :defaultZone)
                                 IS NOT panel_due_at(:sendAt, tz, NULL, NULL, :localTime, :defaultZone)
                        THEN 1
                        ELSE 0 END,
                   CASE WHEN reason = 'reachable' THEN
                          (NOT panel_is_timezone(tz))
                          + 2 * ((qs IS NOT NULL AND NOT panel_is_local_time(qs))
                                 OR (qe IS NOT NULL AND NOT panel_is_local_time(qe)))
                          + 4 * (\(sql: noName))
                          + 8 * (\(sql: noItems))
                          + 16 * (\(sql: noDocuments))
                          + 32 * (ns IS NULL)
                        ELSE 0 END,
                   did
            FROM (SELECT \(reason) AS reason,
                         u.id AS uid,
                         d.id AS did,
                         COALESCE(CAST(d.platform AS TEXT), '') AS platform,
                         COALESCE(CAST(d.push_provider AS TEXT), '') AS provider,
                         u.timezone AS tz,
                         s.quiet_start AS qs,
                         s.quiet_end AS qe,
                         u.display_name AS dn,
                         s.user_id AS ns
                  \(from))
            ORDER BY uid
            """ + bound
        let samples: SQL = """
            SELECT u.id AS id,
                   CAST(d.platform AS TEXT) AS platform,
                   CAST(u.locale AS TEXT) AS locale,
                   CAST(u.timezone AS TEXT) AS timezone
            \(from)
              AND (\(classification(now: now))) = 'reachable'
            GROUP BY u.id
            ORDER BY u.id
            LIMIT \(sql: String(AudiencePreview.sampleSize))
            """
        let overCap = usersOverCap(after: ":after", upTo: ":upTo", now: now, campaign: 0)
        return PreviewSQL(rows: rows, overCap: overCap, samples: samples)
    }

    static func previewRange(
        _ sql: PreviewSQL, after: Int64, upTo: Int64, holdout: HoldoutDraw? = nil, in database: PanelDatabase
    ) async throws -> AudiencePreview {
        let range = SQL(sql: "", arguments: ["after": after, "upTo": upTo])
        return try await database.read { db in
            let overCap = Set(try Int64.fetchAll(db, SQLRequest(literal: sql.overCap + range)))
            var tally = PreviewTally(holdout: holdout, overCap: overCap)
            _ = try db.forEachRawRow(sql.rows + range) { row in tally.add(row) }
            var part = tally.finish()
            if part.counts.reachableUsers > 0 {
                part.samples = try Row.fetchAll(db, SQLRequest(literal: sql.samples + range)).map {
                    SampleRecipient(
                        userID: $0["id"], platform: ($0["platform"] as String?) ?? "",
                        locale: ($0["locale"] as String?) ?? "",
                        timeZone: ($0["timezone"] as String?) ?? "")
                }
            }
            return part
        }
    }
}
