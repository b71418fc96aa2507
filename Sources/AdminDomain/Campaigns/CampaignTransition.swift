import Foundation
import GRDB

/// Every change of a campaign's status, in one place: from which statuses it may happen,
/// where it goes, and the audit row it writes in the same transaction.
public enum CampaignTransition: Sendable, Equatable {
    /// A person launched a draft: its audience is frozen next.
    case launch
    /// The whole audience is frozen into deliveries.
    case frozen
    case pause
    case resume
    /// The panel stopped it on its own (a credentials problem, an unreadable segment).
    case stop(reason: String)
    case cancel
    /// Every delivery settled.
    case finish(reason: String?)

    public var from: Set<CampaignStatus> {
        switch self {
        case .launch: [.draft]
        case .frozen: [.materialising]
        case .pause: [.sending]
        case .resume: [.paused]
        case .stop: [.sending]
        // A draft is deleted, not cancelled: nothing of it went anywhere.
        case .cancel: [.materialising, .sending, .paused]
        // From materialising only when its audience cannot be frozen at all.
        case .finish: [.sending, .materialising]
        }
    }

    public var to: CampaignStatus {
        switch self {
        case .launch: .materialising
        case .frozen, .resume: .sending
        case .pause, .stop: .paused
        case .cancel: .cancelled
        case .finish: .finished
        }
    }

    var action: AuditAction {
        switch self {
        case .launch: .campaignLaunched
        case .frozen: .campaignFrozen
        case .pause: .campaignPaused
        case .resume: .campaignResumed
        case .stop: .campaignStopped
        case .cancel: .campaignCancelled
        case .finish: .campaignFinished
        }
    }

    var detail: String? {
        switch self {
        case .stop(let reason): String(reason.prefix(300))
        case .finish(let reason): reason.map { String($0.prefix(300)) }
        default: nil
        }
    }

    /// Applies the move when the campaign's status allows it, with its audit row; else
    /// throws a sentence naming the status. Returns the status it had.
    @discardableResult
    /// `extra` sets more columns in the same UPDATE (`, column = \(value)`), its values bound where written.
    func apply(to id: Int64, by actor: AuditActor, now: Date, in db: Database, setting extra: SQL = "") throws
        -> CampaignStatus
    {
        // A journey moves by `JourneyTransition`; only the panel's own stop (credentials) reaches it here.
        let movable: [CampaignKind] = if case .stop = self { CampaignKind.allCases } else { [.campaign] }
        let kinds = movable.map(\.sqlLiteral).joined(separator: ", ")
        guard
            let stored = try Stored<CampaignStatus>.fetchOne(
                db,
                sql: "SELECT status FROM panel_campaigns WHERE id = ? AND deleted_at IS NULL AND kind IN (\(kinds))",
                arguments: [id])
        else {
            throw CampaignError("there is no campaign #\(id)")
        }
        guard let current = stored.known, from.contains(current) else {
            throw CampaignError("campaign #\(id) is \(stored.description)\(Self.refusal(for: self))")
        }
        let finishedAt = to.isEnded ? PanelTime(now) : nil
        try db.execute(
            literal: """
                UPDATE panel_campaigns SET status = \(to), status_detail = \(detail),
                  finished_at = COALESCE(\(finishedAt), finished_at)\(extra) WHERE id = \(id)
                """)
        try AuditLog.insert(
            actor.entry(
                action, target: "campaign:\(id)", detail: "was \(current.rawValue)" + (detail.map { ": \($0)" } ?? "")),
            now: now, in: db)
        return current
    }

    /// The panel's own moves, which simply do not happen when a person's move came first.
    @discardableResult
    func applyIfAllowed(to id: Int64, now: Date, in db: Database) throws -> Bool {
        do {
            try apply(to: id, by: .panel, now: now, in: db)
            return true
        } catch is CampaignError {
            return false
        }
    }

    private static func refusal(for transition: CampaignTransition) -> String {
        switch transition {
        case .launch: ", not a draft"
        case .pause: ": only a campaign that is sending can be paused"
        case .resume: ": only a paused campaign can be resumed"
        case .cancel: ": only a campaign being prepared, sent or paused can be cancelled (a draft is deleted)"
        default: ""
        }
    }
}

extension CampaignTransition {
    /// Finishes a sending campaign with nothing left waiting or in flight: called wherever a
    /// delivery may have settled last (outcomes recorded, a claim that sent nothing, the end
    /// of a freeze, a resume). A paused one finishes when resumed.
    @discardableResult
    static func finishIfSettled(_ id: Int64, now: Date, in db: Database) throws -> Bool {
        // A journey never finishes by running out of deliveries: it waits for the next entry.
        guard
            try Stored<CampaignStatus>.fetchOne(
                db, sql: "SELECT status FROM panel_campaigns WHERE id = ? AND kind = ?",
                arguments: [id, CampaignKind.campaign])?
                .known == .sending
        else { return false }
        let open =
            try Bool.fetchOne(
                db,
                SQLRequest(
                    literal: """
                        SELECT EXISTS (SELECT 1 FROM panel_deliveries INDEXED BY panel_deliveries_counts
                                       WHERE campaign_id = \(id) AND state IN (\(states: DeliveryState.open)))
                        """)) ?? true
        guard !open else { return false }
        let any =
            try Bool.fetchOne(
                db,
                sql:
                    "SELECT EXISTS (SELECT 1 FROM panel_deliveries "
                    + "INDEXED BY panel_deliveries_counts WHERE campaign_id = ?)",
                arguments: [id]) ?? false
        let members =
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM panel_campaign_members WHERE campaign_id = ?)", arguments: [id])
            ?? false
        let heldOut = !any && members
        let reason =
            any
            ? nil
            : heldOut
                ? "everyone reachable was drawn into the holdout: nothing was sent"
                : "no device could get it when its audience was frozen"
        return try CampaignTransition.finish(reason: reason).applyIfAllowed(to: id, now: now, in: db)
    }
}

public struct CampaignError: Error, CustomStringConvertible, Equatable {
    public let description: String
    /// Refused for going too fast (the test sends' limit): try again later.
    public var isRateLimit = false
    public init(_ description: String, isRateLimit: Bool = false) {
        self.description = description
        self.isRateLimit = isRateLimit
    }
}
