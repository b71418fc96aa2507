import Foundation
import GRDB

/// Step one of the claim: everything its decisions need, read before the write transaction
/// so that the backend never waits on these joins. Campaign by campaign on (campaign_id,
/// due_at): rows of a paused campaign are never walked past, however many wait.
struct ClaimSnapshot: Sendable {
    /// The due rows, in the claim's order (campaign by campaign, each by due time).
    var rows: [ClaimCandidate] = []
    /// The messages the rows carry that exist.
    var messages: [ClaimMessageKey: ClaimMessage] = [:]

    /// The campaigns to read from, each with how many rows at most (`allowance`, `limit`).
    struct Due: Sendable {
        let campaign: Int64
        let journey: Bool
        let allowed: Int
    }

    /// The sending campaigns with rows due now, in id order, each with what it may give:
    /// one probe of the due index per sending campaign, never a scan.
    static func due(limit: Int, allowance: [Int64: Int]?, at: PanelTime, in db: Database) throws -> [Due] {
        try Row.fetchAll(
            db,
            SQLRequest(
                literal: """
                    SELECT c.id, c.kind = \(CampaignKind.journey) AS journey FROM panel_campaigns c
                    WHERE c.status = \(CampaignStatus.sending)
                      AND EXISTS (SELECT 1 FROM panel_deliveries INDEXED BY panel_deliveries_due
                                  WHERE campaign_id = c.id
                                    AND state IN (\(states: DeliveryState.waiting))
                                    AND due_at <= \(at))
                    ORDER BY c.id
                    """)
        ).compactMap { row in
            let id: Int64 = row["id"]
            let allowed = min(limit, allowance.map { $0[id] ?? 0 } ?? Int.max)
            return allowed > 0 ? Due(campaign: id, journey: row["journey"], allowed: allowed) : nil
        }
    }

    /// Each row's user, settings and device are read by their keys and classified by the
    /// audience's rules without the cap, the same definition as the preview's and the
    /// freeze's (a device that changed hands counts as gone); a journey's rows get its own
    /// rules; the users' pushes in the cap's window are read in one statement for all of
    /// them; the messages once per campaign and variant.
    static func read(
        _ due: [Due], audience: Audience, defaultTimeZone: String, now: Date, in db: Database
    ) throws -> ClaimSnapshot {
        let at = PanelTime(now)
        // Its values are bound per campaign on the cached statement.
        let statement = try db.cachedStatement(
            literal: """
                SELECT q.id, q.campaign_id, q.device_id, q.user_id, q.attempts, q.variant, q.entry_id,
                       d.platform, d.push_provider, d.push_token,
                       CASE WHEN d.id IS NOT NULL AND d.user_id IS NOT q.user_id
                         THEN '\(sql: Exclusion.noDevice.rawValue)' ELSE (\(audience.classification(now: now, withCap: false))) END AS rule,
                       panel_due_at(:at, u.timezone, s.quiet_start, s.quiet_end, NULL, :defaultZone) AS quiet_until,
                       \(sql: ConsentBits.reachableSQL) AS consent
                FROM panel_deliveries q INDEXED BY panel_deliveries_due
                LEFT JOIN users u ON u.id = q.user_id
                LEFT JOIN devices d ON d.id = q.device_id
                LEFT JOIN notification_settings s ON s.user_id = q.user_id
                WHERE q.campaign_id = :campaign
                  AND q.state IN (\(states: DeliveryState.waiting))
                  AND q.due_at <= :at
                ORDER BY q.due_at
                LIMIT :limit
                """)
        var snapshot = ClaimSnapshot()
        for campaign in due {
            var found = try Row.fetchAll(
                statement,
                arguments: [
                    "campaign": campaign.campaign, "at": at, "limit": campaign.allowed, "defaultZone": defaultTimeZone,
                ]
            ).map { try ClaimCandidate($0, journey: campaign.journey) }
            // A journey's own rules, for the rows the audience's let through.
            if campaign.journey {
                let exits = try JourneyClaimCheck.exits(
                    for: found.filter { $0.rule == .reachable }.map { ($0.id, $0.entryID) },
                    journey: campaign.campaign, now: now, in: db)
                for index in found.indices { found[index].journeyExit = exits[found[index].id] }
            }
            snapshot.rows += found
        }
        try snapshot.readCapKeys(since: SQLiteTime.string(now.addingTimeInterval(-audience.capWindow)), in: db)
        try snapshot.readMessages(in: db)
        return snapshot
    }

    /// Campaigns by their pushes' rows; journeys by their sent entries, each push once. Only
    /// for the users of rows every other rule let through (the rest never reach the cap).
    private mutating func readCapKeys(since: String, in db: Database) throws {
        let users = Set(rows.filter { $0.rule == .reachable && $0.journeyExit == nil }.map(\.userID))
        guard !users.isEmpty else { return }
        let list = String(data: try JSONEncoder().encode(users.sorted()), encoding: .utf8) ?? "[]"
        var keys: [Int64: Set<CapKey>] = [:]
        for row in try Row.fetchAll(
            db,
            SQLRequest(
                literal: """
                    SELECT q.user_id, q.campaign_id AS key, 0 AS entry FROM panel_deliveries q INDEXED BY panel_deliveries_cap
                    WHERE q.user_id IN (SELECT value FROM json_each(\(list))) AND q.updated_at >= \(since)
                      AND q.state IN (\(states: DeliveryState.wentOut))
                      AND NOT EXISTS (SELECT 1 FROM panel_campaigns j
                                       WHERE j.id = q.campaign_id AND j.kind = \(sql: CampaignKind.journey.sqlLiteral))
                    UNION
                    SELECT e.user_id, e.id, 1 FROM panel_journey_entries e INDEXED BY panel_journey_entries_sent
                    WHERE e.user_id IN (SELECT value FROM json_each(\(list))) AND e.state = \(entry: .sent)
                      AND e.settled_at >= \(since)
                    """))
        {
            let key: Int64 = row["key"]
            keys[row["user_id"], default: []].insert(row["entry"] == true ? .entry(key) : .campaign(key))
        }
        for index in rows.indices { rows[index].capKeys = keys[rows[index].userID] ?? [] }
    }

    private mutating func readMessages(in db: Database) throws {
        let wanted = Set(rows.compactMap(\.message))
        let own = try db.cachedStatement(
            sql: "SELECT title, body, deep_link, ttl_seconds, template FROM panel_campaigns WHERE id = ?")
        let variant = try db.cachedStatement(
            sql: """
                SELECT v.title, v.body, c.deep_link, c.ttl_seconds, v.template FROM panel_campaigns c
                JOIN panel_campaign_variants v ON v.campaign_id = c.id AND v.variant = ? WHERE c.id = ?
                """)
        let columns = CampaignRecord.Columns.self
        for key in wanted {
            let found =
                key.variant == .a
                ? try Row.fetchOne(own, arguments: [key.campaign])
                : try Row.fetchOne(variant, arguments: [key.variant, key.campaign])
            guard let found else { continue }
            messages[key] = ClaimMessage(
                title: found[columns.title], body: found[columns.body], deepLink: found[columns.deepLink],
                timeToLive: found[columns.ttlSeconds], template: found[columns.template])
        }
    }
}
