import Foundation
import GRDB

/// Step three of the claim, inside its one write transaction: what is still true is checked
/// (the campaign still sending, the row still waiting: one cancelled, claimed or settled
/// since the read stays as it is), the decisions are made on what is left (step two, pure,
/// microseconds), and each kind of decision is written by one statement over its rows.
struct ClaimWrite {
    let decider: ClaimDecider
    let at: PanelTime

    struct Outcome {
        var claimed: [ClaimedDelivery] = []
        /// Campaigns with rows settled unsent (capped, excluded, failed): each may have finished.
        var settledUnsent: Set<Int64> = []
        var putOff: Set<Int64> = []
    }

    func apply(_ snapshot: ClaimSnapshot, in db: Database) throws -> Outcome {
        let rows = try stillDue(snapshot.rows, in: db)
        let decided = decider.decide(rows, messages: Set(snapshot.messages.keys))
        var outcome = Outcome()
        var entries = JourneyClaimEntries(at: at)
        // Rows by the state and detail they settle to: one statement each.
        var settle: [SettleKey: [Int64]] = [:]
        var putOff: [String: [Int64]] = [:]
        var sent: [ClaimCandidate] = []
        for (row, decision) in decided {
            switch decision {
            case .exclude(let exclusion):
                settle[.init(.excluded, "no longer in the audience when due: \(exclusion.label)"), default: []].append(
                    row.id)
                entries.unsent(row, reason: exclusion.rawValue, state: .exited)
            case .exitJourney(let exit):
                settle[.init(.excluded, "journey: \(exit.detail)"), default: []].append(row.id)
                switch exit {
                case .entrySettled: break
                case .expired: entries.unsent(row, reason: nil, state: .expired, userWide: true)
                case .exit(let why): entries.unsent(row, reason: why.rawValue, state: .exited, userWide: true)
                }
            case .fail(let failure):
                settle[.init(.failed, failure.detail), default: []].append(row.id)
            case .cap(let others):
                settle[.init(.capped, "frequency cap: \(others) campaign pushes in the window"), default: []].append(
                    row.id)
                entries.unsent(row, reason: Exclusion.frequencyCap.rawValue, state: .capped)
            case .putOff(let until):
                putOff[until, default: []].append(row.id)
                outcome.putOff.insert(row.campaignID)
            case .send:
                sent.append(row)
            }
            if decision.settlesUnsent { outcome.settledUnsent.insert(row.campaignID) }
        }
        for (key, ids) in settle {
            try db.execute(
                literal: """
                    UPDATE panel_deliveries SET state = \(key.state), detail = \(key.detail), updated_at = \(at)
                    WHERE id IN (SELECT value FROM json_each(\(Self.json(ids))))
                    """)
        }
        for (until, ids) in putOff {
            try db.execute(
                literal: """
                    UPDATE panel_deliveries
                    SET due_at = \(until), detail = \("put off to the end of the user's quiet hours"), updated_at = \(at)
                    WHERE id IN (SELECT value FROM json_each(\(Self.json(ids))))
                    """)
        }
        if !sent.isEmpty {
            // What the claim saw is kept with the push, to be read again 72 hours later
            // (`ConsentReadings`): a statement per value, nearly always one.
            for (consent, rows) in Dictionary(grouping: sent, by: \.consent) {
                try db.execute(
                    literal: """
                        UPDATE panel_deliveries
                        SET state = \(DeliveryState.sending), attempts = attempts + 1, updated_at = \(at),
                            consent_seen = \(consent), consent_sent_at = \(at)
                        WHERE id IN (SELECT value FROM json_each(\(Self.json(rows.map(\.id)))))
                        """)
            }
            let sentEntries = sent.compactMap(\.entryID)
            if !sentEntries.isEmpty {
                try db.execute(
                    literal: """
                        UPDATE panel_journey_entries SET state = \(JourneyEntryState.sent), settled_at = \(at)
                        WHERE id IN (SELECT value FROM json_each(\(Self.json(sentEntries))))
                          AND state = \(entry: .entered)
                        """)
            }
        }
        outcome.claimed = sent.compactMap { row in
            // The decider sent only rows with a token, a platform, a provider and a message.
            guard let message = row.message.flatMap({ snapshot.messages[$0] }), let token = row.token,
                let platform = row.platform, let provider = row.provider
            else { return nil }
            return ClaimedDelivery(
                rowID: row.id, campaignID: row.campaignID, deviceID: row.deviceID, userID: row.userID,
                attempt: row.attempts, token: token, platform: platform, provider: provider,
                title: message.title, body: message.body, deepLink: message.deepLink, timeToLive: message.timeToLive,
                template: message.template, variant: row.message?.variant ?? .a, entryID: row.entryID)
        }
        try entries.write(sent: outcome.claimed, in: db)
        return outcome
    }

    /// The rows whose campaign is still sending and which still wait, read inside the lock
    /// by their keys.
    private func stillDue(_ rows: [ClaimCandidate], in db: Database) throws -> [ClaimCandidate] {
        guard !rows.isEmpty else { return [] }
        let campaigns = Set(rows.map(\.campaignID)).sorted()
        let sending = Set(
            try Int64.fetchAll(
                db,
                SQLRequest(
                    literal: """
                        SELECT id FROM panel_campaigns
                        WHERE id IN (SELECT value FROM json_each(\(Self.json(campaigns))))
                          AND status = \(CampaignStatus.sending)
                        """)))
        let waiting = Set(
            try Int64.fetchAll(
                db,
                SQLRequest(
                    literal: """
                        SELECT id FROM panel_deliveries
                        WHERE id IN (SELECT value FROM json_each(\(Self.json(rows.map(\.id)))))
                          AND state IN (\(states: DeliveryState.waiting))
                        """)))
        return rows.filter { sending.contains($0.campaignID) && waiting.contains($0.id) }
    }

    /// Row ids as a JSON array: one bound text, however many ids.
    static func json(_ ids: [Int64]) -> String {
        "[" + ids.map(String.init).joined(separator: ",") + "]"
    }

    private struct SettleKey: Hashable {
        let state: DeliveryState
        let detail: String
        init(_ state: DeliveryState, _ detail: String) {
            self.state = state
            self.detail = detail
        }
    }
}

extension ClaimDecision {
    /// The row settles, never sent.
    var settlesUnsent: Bool {
        switch self {
        case .exclude, .exitJourney, .fail, .cap: true
        case .putOff, .send: false
        }
    }
}
