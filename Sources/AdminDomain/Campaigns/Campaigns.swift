import Foundation
import GRDB

/// A campaign's content and audience, as composed.
public struct CampaignDraft: Sendable, Equatable {
    public var title: String
    public var body: String
    public var deepLink: String?
    public var timeToLive: Int
    public var segment: CampaignSegment
    /// A template of `Templates/`: each recipient gets its variant for their language; the
    /// title and body above are then its English text, kept for the record.
    public var template: String?
    /// Pushes a second at most; nil: the providers' quota.
    public var perSecond: Int?
    public var schedule: CampaignSchedule

    public init(title: String, body: String, deepLink: String? = nil, timeToLive: Int = 86_400, segment: CampaignSegment = CampaignSegment(),
                template: String? = nil, perSecond: Int? = nil, schedule: CampaignSchedule = .now) {
        self.title = title
        self.body = body
        self.deepLink = deepLink
        self.timeToLive = timeToLive
        self.segment = segment
        self.template = template
        self.perSecond = perSecond
        self.schedule = schedule
    }
}

/// Creating and launching campaigns, each change with its audit row in one transaction.
public struct Campaigns: Sendable {
    let database: PanelDatabase
    /// Users per write transaction when the audience is frozen into deliveries: small enough
    /// that the backend never waits long for the write lock.
    let usersPerChunk: Int
    let audience: Audience
    /// For users whose timezone is not one.
    public let defaultTimeZone: String

    public init(database: PanelDatabase, audience: Audience = Audience(), defaultTimeZone: String = "UTC", usersPerChunk: Int = 2_000) {
        self.database = database
        self.audience = audience
        self.defaultTimeZone = defaultTimeZone
        self.usersPerChunk = max(1, usersPerChunk)
    }

    public func create(_ draft: CampaignDraft, by actor: Actor, now: Date = Date()) async throws -> Int64 {
        try await database.write { db in
            try db.execute(sql: """
                INSERT INTO panel_campaigns (title, body, deep_link, ttl_seconds, segment, status, created_by, created_at,
                                             template, per_second, send_at, local_time)
                VALUES (?, ?, ?, ?, ?, 'draft', ?, ?, ?, ?, ?, ?)
                """, arguments: [draft.title, draft.body, draft.deepLink, draft.timeToLive, draft.segment.storedText,
                                 actor.identity?.adminID, SQLiteTime.string(now), draft.template, draft.perSecond,
                                 draft.schedule.plannedAt.map(SQLiteTime.string), draft.schedule.localTime?.description])
            let id = db.lastInsertedRowID
            try AuditLog.insert(actor.entry(.campaignCreated, target: "campaign:\(id)", detail: String(draft.title.prefix(200))), now: now, in: db)
            return id
        }
    }

    /// Freezes the campaign's audience into one queued delivery per reachable device, a chunk
    /// of users per transaction, then lets the dispatcher send. A launch cut short by a crash
    /// goes on from the last chunk written (`resumeLaunches`). Returns the deliveries written.
    @discardableResult
    public func launch(_ id: Int64, schedule: CampaignSchedule = .now, by actor: Actor, now: Date = Date()) async throws -> LaunchReport {
        try await begin(id, schedule: schedule, by: actor, now: now)
        return try await materialiseStored(id, now: now)
    }

    /// The launch's first step, with its audit row: the draft becomes `materialising`, so
    /// that `materialiseLaunched` (or the next start) freezes its audience.
    public func begin(_ id: Int64, schedule: CampaignSchedule, by actor: Actor, now: Date = Date()) async throws {
        let sendAt: String = switch schedule {
        case .at(let date): SQLiteTime.string(max(date, now))
        case .now, .localTime: SQLiteTime.string(now)
        }
        let localTime: String? = if case .localTime(let time) = schedule { time.description } else { nil }
        try await database.write { db in
            try db.execute(sql: """
                UPDATE panel_campaigns SET status = 'materialising', launched_at = ?, send_at = ?, local_time = ? WHERE id = ? AND status = 'draft'
                """, arguments: [SQLiteTime.string(now), sendAt, localTime, id])
            guard db.changesCount == 1 else { throw CampaignError("campaign #\(id) is not a draft") }
            try AuditLog.insert(actor.entry(.campaignLaunched, target: "campaign:\(id)", detail: nil), now: now, in: db)
        }
    }

    /// Freezes the audience of a campaign `begin` launched: what a launch does after its
    /// first step, in the background of the request that began it.
    @discardableResult
    public func materialiseLaunched(_ id: Int64) async throws -> LaunchReport {
        try await materialiseStored(id, now: Date())
    }

    func materialise(_ id: Int64, segment: CampaignSegment, now: Date) async throws -> LaunchReport {
        let clock = ContinuousClock()
        let started = clock.now
        let lastUser = try await database.read { db in try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM users") ?? 0 }
        var after = try await database.read { db in
            try Int64.fetchOne(db, sql: "SELECT materialised_up_to FROM panel_campaigns WHERE id = ?", arguments: [id]) ?? 0
        }
        let range = SQLCondition("u.id > :after AND u.id <= :upTo")
        let (from, fixed) = audience.from(segment, now: now, extra: [range])
        let (sendAt, localTime) = try await database.read { db -> (String?, String?) in
            let row = try Row.fetchOne(db, sql: "SELECT send_at, local_time FROM panel_campaigns WHERE id = ?", arguments: [id])
            return (row?["send_at"], row?["local_time"])
        }
        let sql = """
            INSERT INTO panel_deliveries (campaign_id, device_id, user_id, state, due_at, updated_at)
            SELECT :campaign, d.id, u.id, 'queued',
                   panel_due_at(:sendAt, u.timezone, s.quiet_start, s.quiet_end, :localTime, :defaultZone), :now
            \(from) AND (\(audience.classification(now: now).sql)) = 'reachable'
            ON CONFLICT (campaign_id, device_id) DO NOTHING
            """
        var report = LaunchReport()
        var warmed = warm(after: after, upTo: min(lastUser, after + Int64(usersPerChunk)))
        while after < lastUser {
            let upTo = min(lastUser, after + Int64(usersPerChunk))
            await warmed.value
            // The next chunk's pages are read on a reader meanwhile: a write transaction that
            // had to wait for the disk would hold the backend's lock that much longer.
            warmed = warm(after: upTo, upTo: min(lastUser, upTo + Int64(usersPerChunk)))
            var arguments = fixed
            arguments["campaign"] = id.databaseValue
            arguments["now"] = SQLiteTime.string(now).databaseValue
            arguments["after"] = after.databaseValue
            arguments["upTo"] = upTo.databaseValue
            arguments["sendAt"] = (sendAt ?? SQLiteTime.string(now)).databaseValue
            arguments["localTime"] = localTime.databaseValue
            arguments["defaultZone"] = defaultTimeZone.databaseValue
            let bound = StatementArguments(arguments)
            let written = try await database.write { db -> (Int, Duration)? in
                let began = ContinuousClock.now
                // Cancelled meanwhile: write no more.
                guard try String.fetchOne(db, sql: "SELECT status FROM panel_campaigns WHERE id = ?", arguments: [id]) == "materialising" else { return nil }
                try db.execute(sql: sql, arguments: bound)
                let count = db.changesCount
                try db.execute(sql: "UPDATE panel_campaigns SET materialised_up_to = ?, audience_count = audience_count + ? WHERE id = ?",
                               arguments: [upTo, count, id])
                return (count, ContinuousClock.now - began)
            }
            guard let (count, held) = written else { break }
            report.deliveries += count
            report.chunks += 1
            report.longestTransaction = max(report.longestTransaction, held)
            after = upTo
        }
        warmed.cancel()
        try await database.write { db in
            try db.execute(sql: "UPDATE panel_campaigns SET status = 'sending' WHERE id = ? AND status = 'materialising'", arguments: [id])
        }
        report.total = clock.now - started
        return report
    }

    /// Reads a chunk's users, devices and settings rows, so that its write finds them in memory.
    private func warm(after: Int64, upTo: Int64) -> Task<Void, Never> {
        let database = self.database
        return Task {
            guard upTo > after else { return }
            _ = try? await database.read { db in
                try Int.fetchOne(db, sql: """
                    SELECT COUNT(d.push_token) + COUNT(s.quiet_start) + COUNT(u.timezone) FROM users u
                    LEFT JOIN devices d INDEXED BY devices_user ON d.user_id = u.id LEFT JOIN notification_settings s ON s.user_id = u.id
                    WHERE u.id > ? AND u.id <= ?
                    """, arguments: [after, upTo])
            }
        }
    }
}

extension Campaigns {
    /// Stops claiming at once: what is in flight finishes and is recorded. A campaign whose
    /// audience is still being frozen can be cancelled, not paused, so that a paused one
    /// always has its whole audience.
    public func pause(_ id: Int64, by actor: Actor, now: Date = Date()) async throws {
        try await change(id, from: ["sending"], to: "paused", action: .campaignPaused, by: actor, now: now)
    }

    public func resume(_ id: Int64, by actor: Actor, now: Date = Date()) async throws {
        try await change(id, from: ["paused"], to: "sending", action: .campaignResumed, by: actor, now: now)
    }

    /// Nothing more goes out; what waits becomes `cancelled`, a chunk per transaction.
    /// Returns how many had gone out.
    public func cancel(_ id: Int64, by actor: Actor, now: Date = Date()) async throws -> Int {
        try await change(id, from: ["draft", "materialising", "sending", "paused"], to: "cancelled", action: .campaignCancelled, by: actor, now: now)
        let at = SQLiteTime.string(now)
        while try await database.write({ db in
            try db.execute(sql: """
                UPDATE panel_deliveries SET state = 'cancelled', updated_at = ?
                WHERE id IN (SELECT id FROM panel_deliveries WHERE campaign_id = ? AND state IN ('queued', 'retry') LIMIT 5000)
                """, arguments: [at, id])
            return db.changesCount
        }) > 0 {}
        return try await database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM panel_deliveries WHERE campaign_id = ? AND state IN ('accepted', 'unknown', 'sending')",
                             arguments: [id]) ?? 0
        }
    }

    private func change(_ id: Int64, from: Set<String>, to status: String, action: AuditAction, by actor: Actor, now: Date) async throws {
        try await database.write { db in
            guard let current = try String.fetchOne(db, sql: "SELECT status FROM panel_campaigns WHERE id = ?", arguments: [id]) else {
                throw CampaignError("no campaign #\(id)")
            }
            guard from.contains(current) else { throw CampaignError("campaign #\(id) is \(current)") }
            try db.execute(sql: "UPDATE panel_campaigns SET status = ?, status_detail = NULL WHERE id = ?", arguments: [status, id])
            try AuditLog.insert(actor.entry(action, target: "campaign:\(id)", detail: "was \(current)"), now: now, in: db)
        }
    }

    /// Launches a crash cut short go on from their last chunk: called before the dispatcher
    /// claims anything.
    public func resumeLaunches(now: Date = Date()) async throws -> LaunchReport {
        let pending = try await database.read { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM panel_campaigns WHERE status = 'materialising'")
        }
        var report = LaunchReport()
        for id in pending { report.add(try await materialiseStored(id, now: now)) }
        return report
    }

    /// The campaign's stored segment, as it was at the launch (activity and the frequency
    /// cap by then).
    private func materialiseStored(_ id: Int64, now: Date) async throws -> LaunchReport {
        let (stored, launchedAt) = try await database.read { db -> (String?, String?) in
            let row = try Row.fetchOne(db, sql: "SELECT segment, launched_at FROM panel_campaigns WHERE id = ?", arguments: [id])
            return (row?["segment"], row?["launched_at"])
        }
        guard let segment = stored.flatMap(CampaignSegment.fromStoredText) else {
            try await database.write { db in
                try db.execute(sql: "UPDATE panel_campaigns SET status = 'paused', status_detail = 'its segment cannot be read' WHERE id = ?", arguments: [id])
            }
            return LaunchReport()
        }
        return try await materialise(id, segment: segment, now: launchedAt.flatMap(SQLiteTime.date) ?? now)
    }
}

/// What freezing an audience wrote and how long its transactions held the write lock.
public struct LaunchReport: Sendable, Equatable {
    public var deliveries = 0
    public var chunks = 0
    public var longestTransaction: Duration = .zero
    public var total: Duration = .zero

    mutating func add(_ other: LaunchReport) {
        deliveries += other.deliveries
        chunks += other.chunks
        longestTransaction = max(longestTransaction, other.longestTransaction)
        total += other.total
    }
}

public struct CampaignError: Error, CustomStringConvertible, Equatable {
    public let description: String
    init(_ description: String) { self.description = description }
}
