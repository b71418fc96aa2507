import Foundation

/// What the audience's rules say of one due delivery at its claim (`Audience.classification`
/// without the cap, read as this type, never compared as text).
enum ClaimRule: Equatable, Sendable {
    case reachable
    case excluded(Exclusion)

    /// The classification's value; anything else is a fault of the query, refused by name.
    init(stored: String) throws {
        if stored == "reachable" {
            self = .reachable
        } else if let exclusion = Exclusion(rawValue: stored) {
            self = .excluded(exclusion)
        } else {
            throw ClaimSnapshotUnreadable(column: "rule", value: stored)
        }
    }
}

/// Why a journey's own rules stop one delivery at its claim (`JourneyClaimCheck`).
enum JourneyClaimExit: Equatable, Sendable {
    /// Its entry ended unsent already, or is gone: the row is excluded, the entry left as it is.
    case entrySettled
    /// More than a day since the entry (`JourneySendAt.horizon`).
    case expired
    case exit(JourneyExit)

    /// After "journey: " in the settled delivery's detail.
    var detail: String {
        switch self {
        case .entrySettled: "its entry was settled already"
        case .expired: "expired"
        case .exit(let exit): exit.label
        }
    }

    /// The query's words for the first two (`JourneyClaimCheck`); the others are `JourneyExit`'s.
    static let settledText = "settled"
    static let expiredText = "expired"

    init(stored: String) throws {
        switch stored {
        case Self.settledText: self = .entrySettled
        case Self.expiredText: self = .expired
        default:
            guard let exit = JourneyExit(rawValue: stored) else {
                throw ClaimSnapshotUnreadable(column: "journey exit", value: stored)
            }
            self = .exit(exit)
        }
    }
}

/// A value of the claim's read that none of its types knows: the claim stops with it
/// rather than guess (the row stays waiting).
struct ClaimSnapshotUnreadable: Error, CustomStringConvertible {
    let column: String
    let value: String
    var description: String { "the claim's read gave an unknown \(column): \(value)" }
}

/// What the claim does with one due delivery, decided from its snapshot alone (no database),
/// in the order the rules are checked: the audience's, then the journey's, then quiet hours,
/// then what the push needs (a token, its message), then the frequency cap. A new rule is a
/// case here, a line in `ClaimDecider.decide` and a row of its table-driven test.
enum ClaimDecision: Equatable, Sendable {
    /// Settled `excluded`: no longer in the audience.
    case exclude(Exclusion)
    /// Settled `excluded` by the journey's rules.
    case exitJourney(JourneyClaimExit)
    /// Waits until the end of the user's quiet hours (a `panel_due_at` text, UTC).
    case putOff(until: String)
    /// Settled `failed`: the push could not be made.
    case fail(ClaimFailure)
    /// Settled `capped`: `others` campaign pushes in the cap's window already.
    case cap(others: Int)
    case send

    /// The rules that need no count: `nil` when all of them hold and the cap decides.
    static func beforeCap(rule: ClaimRule, journeyExit: JourneyClaimExit?, quietUntil: String?, now: PanelTime)
        -> ClaimDecision?
    {
        if case .excluded(let exclusion) = rule { return .exclude(exclusion) }
        if let journeyExit { return .exitJourney(journeyExit) }
        // Both are `SQLiteTime` texts, which sort as the times they name.
        if let quietUntil, quietUntil > now.text { return .putOff(until: quietUntil) }
        return nil
    }

    /// The cap's decision for a delivery that passed every other rule.
    static func capped(others: Int, cap: Int) -> ClaimDecision {
        others >= cap ? .cap(others: others) : .send
    }
}

/// Why a delivery every rule let through cannot be sent.
enum ClaimFailure: Equatable, Sendable {
    /// Its device has no token, platform or provider any more.
    case noToken
    /// Its variant is a text no `MessageVariant` knows, or the campaign has no such message.
    case noMessage(variant: String)

    /// The settled row's `detail`.
    var detail: String {
        switch self {
        case .noToken: "the device has no push token any more"
        case .noMessage(let variant): "the campaign has no message for its variant \(variant)"
        }
    }
}

/// Step two of the claim: a decision for each due delivery of the snapshot, in the claim's
/// order, with no database. Pushes decided `send` earlier in the same claim count for the
/// cap of the user's later rows (another campaign's, or another entry's), as they would
/// once written; at most `limit` are sent, and rows after that are left as they are.
struct ClaimDecider: Sendable {
    let now: PanelTime
    /// `Audience.frequencyCap`.
    let cap: Int
    let limit: Int

    func decide(_ rows: [ClaimCandidate], messages: Set<ClaimMessageKey>) -> [(ClaimCandidate, ClaimDecision)] {
        var decided: [(ClaimCandidate, ClaimDecision)] = []
        var sends = 0
        var sentNow: [Int64: Set<CapKey>] = [:]
        for row in rows where sends < limit {
            let decision = decide(row, messages: messages, sentNow: sentNow[row.userID, default: []])
            if decision == .send {
                sends += 1
                if let key = row.capKey { sentNow[row.userID, default: []].insert(key) }
            }
            decided.append((row, decision))
        }
        return decided
    }

    /// One row, given the cap's keys this claim has already sent to its user.
    func decide(_ row: ClaimCandidate, messages: Set<ClaimMessageKey>, sentNow: Set<CapKey>) -> ClaimDecision {
        if let before = ClaimDecision.beforeCap(
            rule: row.rule, journeyExit: row.journeyExit, quietUntil: row.quietUntil, now: now)
        {
            return before
        }
        guard let token = row.token, !token.isEmpty, row.platform != nil, row.provider != nil else {
            return .fail(.noToken)
        }
        guard let message = row.message, messages.contains(message) else {
            return .fail(.noMessage(variant: row.variant ?? MessageVariant.a.rawValue))
        }
        // Its own campaign, and its own entry, are not "others".
        var others = row.capKeys.union(sentNow)
        others.remove(.campaign(row.campaignID))
        if let entry = row.entryID { others.remove(.entry(entry)) }
        return ClaimDecision.capped(others: others.count, cap: cap)
    }
}
