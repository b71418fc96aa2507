import Foundation
import GRDB

/// Why a user or device in a segment gets no campaign push, in the order they are tried:
/// a device is counted under the first that applies.
public enum Exclusion: String, CaseIterable, Sendable {
    case accountClosed = "account_closed"
    case pushOff = "push_off"
    case marketingOff = "marketing_off"
    case noDevice = "no_device"
    case noPermission = "no_permission"
    case unknownProvider = "unknown_provider"
    case providerNotConfigured = "provider_not_configured"
    case deadToken = "dead_token"
    /// Drawn into the global control group (`GlobalControlDraw`): tried after every rule about
    /// the device, so that its count is of users a push would otherwise have reached.
    case globalControl = "global_control"
    case frequencyCap = "frequency_cap"

    public var label: String {
        switch self {
        case .accountClosed: "suspended or deleted accounts"
        case .pushOff: "push notifications turned off"
        case .marketingOff: "no consent to campaign pushes"
        case .noDevice: "no device"
        case .noPermission: "devices without permission or token"
        case .unknownProvider: "devices with a provider the panel cannot send to"
        case .providerNotConfigured: "devices whose provider (FCM or APNs) is not configured on this server"
        case .deadToken: "tokens a provider called dead"
        case .globalControl: "global control group"
        case .frequencyCap: "already had the most campaign pushes a week allows"
        }
    }
}

/// A segment's audience: who is reachable, on which platforms and providers, and who is
/// left out for which reason.
public struct AudienceCounts: Sendable, Equatable {
    public struct Group: Sendable, Hashable {
        public let platform: String
        public let provider: String

        public init(platform: String, provider: String) {
            self.platform = platform
            self.provider = provider
        }
    }

    public var reachableUsers = 0
    public var reachableDevices = 0
    public var devicesByGroup: [Group: Int] = [:]
    /// Devices left out by reason (none for `noDevice`).
    public var excludedDevices: [Exclusion: Int] = [:]
    /// Users by the reason of their rows: for the reasons about the user (closed account,
    /// push or marketing off, no device) every device of theirs is left out.
    public var excludedUsers: [Exclusion: Int] = [:]

    public init() {}
}

/// The campaign rules as SQL: the segment's users, each device classified once. The preview
/// counts with it and the launch freezes exactly its `reachable` rows.
public struct Audience: Sendable {
    /// Campaign pushes a user may get in `capWindow`.
    public var frequencyCap: Int
    public var capWindow: TimeInterval
    /// The providers this server has credentials for: a device of another is left out of
    /// the preview, the launch and each claim. `serve` says which; tests and benchmarks that
    /// do not send take both.
    public var providers: Set<PushProvider>

    public init(
        frequencyCap: Int = 2, capWindow: TimeInterval = 7 * 86_400,
        providers: Set<PushProvider> = Set(PushProvider.allCases)
    ) {
        self.frequencyCap = frequencyCap
        self.capWindow = capWindow
        self.providers = providers
    }

    /// The providers without credentials here, in a fixed order, for the sentences that name them.
    public var missingProviders: [PushProvider] { PushProvider.allCases.filter { !providers.contains($0) } }

    /// Which providers have no credentials here, in a sentence; nil when both have.
    public var missingProvidersSentence: String? {
        switch missingProviders {
        case []: nil
        case [.fcm]:
            "FCM is not configured on this server (no --fcm-service-account), "
                + "so Android devices and iOS devices registered through FCM cannot be sent to"
        case [.apns]:
            "APNs is not configured on this server (no --apns-key), "
                + "so iOS devices registered with APNs cannot be sent to"
        default:
            "no push provider is configured on this server (neither --fcm-service-account nor --apns-key), "
                + "so no device can be sent to"
        }
    }

    /// `d.push_provider` is one the panel sends to and has credentials for: our own constants, never user text.
    private var configuredProviderSQL: String {
        let quoted = PushProvider.allCases.filter(providers.contains).map { "'\($0.rawValue)'" }
        return providers.isEmpty ? "0" : "d.push_provider IN (\(quoted.joined(separator: ", ")))"
    }

    /// Each row's reason, or 'reachable'; on `users u`, `devices d` (LEFT JOIN) and
    /// `notification_settings s` (LEFT JOIN). Malformed settings count as off. A dead token
    /// is looked up by its device first, so only devices with a dead-token row have their
    /// token hashed: hashing every token made the preview of a million users a second slower.
    /// A token the same device registers again afresh is not dead.
    ///
    /// The frequency cap counts the other campaigns that went out to the user in the window,
    /// and those of launched campaigns still waiting to (due within the window): however
    /// campaigns overlap, a freeze sees what the others froze before it. `campaign` is the
    /// one being frozen, whose own rows do not count.
    ///
    /// `withCap: false` leaves the cap out (the freeze's reader classifies without it, and its
    /// writer checks the cap per user inside the write transaction). `withControl: false`
    /// leaves the global control group out: for test sends, and for the freeze's reader, whose
    /// writer draws the members inside its transaction, with the share in force then.
    func classification(now: Date, campaign: Int64 = 0, withCap: Bool = true, withControl: Bool = true) -> SQL {
        let cap: SQL = withCap ? "WHEN \(overCap(.segmentUser, now: now, campaign: campaign)) THEN 'frequency_cap'" : ""
        let control: SQL =
            withControl ? "WHEN \(sql: GlobalControlDraw.memberSQL(user: "u.id")) THEN 'global_control'" : ""
        return """
            CASE
              WHEN u.status IS NOT 'active' THEN 'account_closed'
              WHEN s.user_id IS NOT NULL AND COALESCE(CAST(s.push_enabled AS INTEGER), 0) = 0 THEN 'push_off'
              WHEN s.user_id IS NOT NULL AND COALESCE(CAST(s.marketing_opt_in AS INTEGER), 0) = 0 THEN 'marketing_off'
              WHEN d.id IS NULL THEN 'no_device'
              WHEN d.push_permission IS NOT 'granted' OR d.push_token IS NULL OR d.push_token = '' THEN 'no_permission'
              WHEN d.push_provider NOT IN ('fcm', 'apns') THEN 'unknown_provider'
              WHEN NOT (\(sql: configuredProviderSQL)) THEN 'provider_not_configured'
              WHEN EXISTS (SELECT 1 FROM panel_dead_tokens t INDEXED BY panel_dead_tokens_device
                           WHERE t.device_id = d.id AND t.token_sha256 = panel_sha256(d.push_token)) THEN 'dead_token'
              \(control)
              \(cap)
              ELSE 'reachable'
            END
            """
    }

    /// `subject` already had `frequencyCap` campaign pushes: `capCount >= :cap`, with the
    /// cap's named values (`:capSince`, `:capUntil`, `:campaign`, `:cap`) bound.
    func overCap(_ subject: UserReference, now: Date, campaign: Int64) -> SQL {
        "(SELECT COUNT(DISTINCT k) FROM (\(Self.capKeys { "\(sql: $0) = \(subject.sql)" }))) >= :cap"
            + capValues(now: now, campaign: campaign)
    }

    /// The users of ids in `(after, upTo]` over the cap, the same count as `overCap` read
    /// along the same indexes by a range of users: a statement per range costs what the
    /// range's pushes cost, where a count per user cost three probes each (4.6 s of a
    /// million-user preview with no other campaign at all).
    func usersOverCap(after: SQL, upTo: SQL, now: Date, campaign: Int64) -> SQL {
        """
        SELECT uid FROM (\(Self.capKeys { "\(sql: $0) > \(after) AND \(sql: $0) <= \(upTo)" }))
        GROUP BY uid HAVING COUNT(DISTINCT k) >= :cap
        """ + capValues(now: now, campaign: campaign)
    }

    private func capValues(now: Date, campaign: Int64) -> SQL {
        SQL(
            sql: "",
            arguments: [
                "capSince": SQLiteTime.string(now.addingTimeInterval(-capWindow)),
                "capUntil": SQLiteTime.string(now.addingTimeInterval(capWindow)),
                "cap": frequencyCap, "campaign": campaign,
            ])
    }

    /// What counts against a user's cap, a row (`uid`, `k`) per key of the users `user`
    /// admits (given each table's user column): pushes of campaigns other than `:campaign`
    /// that went out since `:capSince`, and deliveries of launched campaigns due before
    /// `:capUntil`. A journey's pushes count one by one (its sent entries), as a re-entered
    /// journey pushes again; while one waits it counts as its campaign does.
    private static func capKeys(_ user: (String) -> SQL) -> SQL {
        """
        SELECT q.user_id AS uid, q.campaign_id AS k FROM panel_deliveries q INDEXED BY panel_deliveries_cap
        WHERE \(user("q.user_id")) AND q.updated_at >= :capSince AND q.state IN (\(states: DeliveryState.wentOut))
          AND q.campaign_id <> :campaign
          AND NOT EXISTS (SELECT 1 FROM panel_campaigns j
                          WHERE j.id = q.campaign_id AND j.kind = \(sql: CampaignKind.journey.sqlLiteral))
        UNION ALL
        SELECT e.user_id, 'entry ' || e.id FROM panel_journey_entries e INDEXED BY panel_journey_entries_sent
        WHERE \(user("e.user_id")) AND e.state = \(entry: .sent) AND e.settled_at >= :capSince
          AND e.journey_id <> :campaign
        UNION ALL
        SELECT w.user_id, w.campaign_id FROM panel_deliveries w INDEXED BY panel_deliveries_waiting
        WHERE \(user("w.user_id")) AND w.state IN (\(states: DeliveryState.waiting))
          AND w.campaign_id <> :campaign
          AND w.due_at < :capUntil
          AND EXISTS (SELECT 1 FROM panel_campaigns c WHERE c.id = w.campaign_id
                      AND c.status IN (\(sql: CampaignStatus.materialising.sqlLiteral),
                                       \(sql: CampaignStatus.sending.sqlLiteral),
                                       \(sql: CampaignStatus.paused.sqlLiteral)))
        """
    }

    /// `FROM ... WHERE ...` for a segment, `extra` conditions ANDed on, with its values.
    func from(_ segment: CampaignSegment, now: Date, extra: [SQLCondition] = []) -> SQL {
        let deviceJoin = segment.platform == nil ? "" : " AND d.platform = :platform"
        let platform = segment.platform.map { ["platform": $0.databaseValue] } ?? [:]
        return """
            FROM users u
            LEFT JOIN devices d INDEXED BY devices_user ON d.user_id = u.id\(sql: deviceJoin)
            LEFT JOIN notification_settings s ON s.user_id = u.id
            WHERE \(SQLCondition.all(segment.userConditions(now: now) + extra, also: platform))
            """
    }

    /// The preview's counts alone.
    public func count(_ segment: CampaignSegment, in database: PanelDatabase, now: Date = Date()) async throws
        -> AudienceCounts
    {
        try await preview(segment, schedule: .now, in: database, now: now).counts
    }
}
