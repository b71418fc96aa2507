import Foundation
import GRDB

/// Changing drafts: edited and deleted only while drafts, duplicated from any campaign.
/// Each change with its audit row in one transaction.
extension Campaigns {
    /// Replaces a draft's content, audience and schedule.
    public func edit(_ id: Int64, to draft: CampaignDraft, by actor: AuditActor, now: Date = Date()) async throws {
        if let problem = draft.controlCharacterProblem ?? draft.timingProblem { throw CampaignError(problem) }
        try await database.write { db in
            try Self.requireDraft(id, in: db, doing: "edited")
            try db.execute(
                sql: """
                    UPDATE panel_campaigns
                    SET title = ?, body = ?, deep_link = ?, ttl_seconds = ?, segment = ?, template = ?, per_second = ?,
                        send_at = ?, local_time = ?, name = ?
                    WHERE id = ?
                    """,
                arguments: [
                    draft.title, draft.body, draft.deepLink, draft.timeToLive, draft.segment.storedText, draft.template,
                    draft.perSecond,
                    draft.schedule.plannedAt.map(SQLiteTime.string), draft.schedule.localTime?.description, draft.name,
                    id,
                ])
            try Self.storeExperiment(draft.experiment, of: id, in: db)
            try Self.storeTiming(draft.timing, of: id, in: db)
            try AuditLog.insert(
                actor.entry(.campaignEdited, target: "campaign:\(id)", detail: String(draft.title.prefix(200))),
                now: now, in: db)
        }
    }

    /// A new draft with the campaign's content and audience; a planned time that has passed
    /// is not copied. Returns the new draft's id.
    public func duplicate(_ id: Int64, by actor: AuditActor, now: Date = Date()) async throws -> Int64 {
        guard let original = try await find(id) else { throw CampaignError("there is no campaign #\(id)") }
        guard let segment = original.segment else {
            throw CampaignError("its segment cannot be read by this version of the panel")
        }
        var schedule = original.schedule
        if case .at(let date) = schedule, date <= now { schedule = .now }
        let copy = CampaignDraft(
            title: original.title, body: original.body, deepLink: original.deepLink, timeToLive: original.timeToLive,
            segment: segment, template: original.template, perSecond: original.perSecond, schedule: schedule,
            name: String("Copy of \(original.displayName)".prefix(Self.nameLimit)), experiment: original.experiment,
            timing: original.timing ?? .asScheduled)
        return try await database.write { db in
            try Self.insert(
                copy, by: actor, action: .campaignDuplicated, detail: "copy of campaign #\(id)", now: now, in: db)
        }
    }

    /// Only a draft: a launched campaign's deliveries are its record. The row stays, marked,
    /// so that its id is never given to another campaign (the audit log names it).
    public func delete(_ id: Int64, by actor: AuditActor, now: Date = Date()) async throws {
        try await database.write { db in
            let title = try Self.requireDraft(id, in: db, doing: "deleted")
            try db.execute(
                sql: "UPDATE panel_campaigns SET deleted_at = ? WHERE id = ? AND status = ?",
                arguments: [PanelTime(now), id, CampaignStatus.draft])
            try AuditLog.insert(
                actor.entry(.campaignDeleted, target: "campaign:\(id)", detail: String(title.prefix(200))), now: now,
                in: db)
        }
    }

    public static let nameLimit = 120

    @discardableResult
    private static func requireDraft(_ id: Int64, in db: Database, doing: String) throws -> String {
        let campaign = CampaignRecord.Columns.self
        guard
            let row = try CampaignRecord.select(campaign.status, campaign.title).filter(key: id).notDeleted().asRequest(
                of: Row.self
            ).fetchOne(db)
        else {
            throw CampaignError("there is no campaign #\(id)")
        }
        let status: Stored<CampaignStatus> = try row.decode(forColumn: campaign.status)
        guard status.known == .draft else {
            throw CampaignError("campaign #\(id) is \(status), and only a draft can be \(doing)")
        }
        return row[campaign.title]
    }
}
