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

    init(stored: String) throws {
        switch stored {
        case "settled": self = .entrySettled
        case "expired": self = .expired
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
/// then the frequency cap. A new rule is a case here and a row of its table-driven test.
enum ClaimDecision: Equatable, Sendable {
    /// Settled `excluded`: no longer in the audience.
    case exclude(Exclusion)
    /// Settled `excluded` by the journey's rules.
    case exitJourney(JourneyClaimExit)
    /// Waits until the end of the user's quiet hours (a `panel_due_at` text, UTC).
    case putOff(until: String)
    /// Settled `capped`: `others` campaign pushes in the cap's window already.
    case cap(others: Int)
    case send

    /// The rules that need no count: `nil` when all of them hold and the cap decides
    /// (`capped(others:cap:)`, counted inside the write so that this claim's earlier rows count).
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
