import Foundation
import GRDB

/// Every change of a journey's status, with its audit row in the same transaction. Stored as
/// the campaign statuses the dispatcher knows: active is `sending`, ended is `finished`.
enum JourneyTransition: Sendable {
    case activate, pause, resume, end

    var from: Set<CampaignStatus> {
        switch self {
        case .activate: [.draft]
        case .pause: [.sending]
        case .resume: [.paused]
        case .end: [.sending, .paused]
        }
    }

    var to: CampaignStatus {
        switch self {
        case .activate, .resume: .sending
        case .pause: .paused
        case .end: .finished
        }
    }

    var action: AuditAction {
        switch self {
        case .activate: .journeyActivated
        case .pause: .journeyPaused
        case .resume: .journeyResumed
        case .end: .journeyEnded
        }
    }

    var refusal: String {
        switch self {
        case .activate: "only a draft can be activated"
        case .pause: "only an active journey can be paused"
        case .resume: "only a paused journey can be resumed"
        case .end: "only an active or paused journey can be ended (a draft is deleted)"
        }
    }

    /// `extra` sets more columns in the same UPDATE (`, column = \(value)`), its values bound where written.
    func apply(to id: Int64, by actor: AuditActor, now: Date, in db: Database, setting extra: SQL = "") throws {
        let stored = try Journeys.storedStatus(of: id, in: db)
        guard let current = stored.known, from.contains(current) else {
            throw CampaignError("journey #\(id) is \(Journeys.shown(stored)): \(refusal)")
        }
        let finishedAt = to.isEnded ? PanelTime(now) : nil
        try db.execute(
            literal: """
                UPDATE panel_campaigns
                SET status = \(to), status_detail = NULL, finished_at = COALESCE(\(finishedAt), finished_at)\(extra)
                WHERE id = \(id)
                """)
        let was = JourneyStatus(current)?.rawValue ?? current.rawValue
        try AuditLog.insert(actor.entry(action, target: "journey:\(id)", detail: "was \(was)"), now: now, in: db)
    }
}
