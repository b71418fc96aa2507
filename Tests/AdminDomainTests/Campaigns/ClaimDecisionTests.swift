import Foundation
import Testing

@testable import AdminDomain

/// The claim's decision for one due delivery, from its snapshot alone, table by table. The
/// expected order is the outbox's documented one (docs/campaigns.md, "Checked again when due"): the audience's
/// rules, then the journey's, then quiet hours, then the frequency cap; the stored texts are
/// those the claim's SQL writes (`Audience.classification`, `JourneyClaimCheck`).
@Suite(.timeLimit(.minutes(10))) struct ClaimDecisions {
    static let now = PanelTime(secondsSinceEpoch: 1_796_212_800)  // 2026-12-02 12:00:00 UTC
    static let later = "2026-12-02 18:00:00"
    static let earlier = "2026-12-02 06:00:00"

    static let exclusions: [(String, Exclusion)] = [
        ("account_closed", .accountClosed), ("push_off", .pushOff), ("marketing_off", .marketingOff),
        ("no_device", .noDevice), ("no_permission", .noPermission), ("unknown_provider", .unknownProvider),
        ("provider_not_configured", .providerNotConfigured), ("dead_token", .deadToken),
        ("frequency_cap", .frequencyCap),
    ]
    static let journeyExits: [(String, JourneyClaimExit)] = [
        ("settled", .entrySettled), ("expired", .expired), ("no_longer_matches", .exit(.noLongerMatches)),
        ("outside_conditions", .exit(.outsideConditions)), ("goal_reached", .exit(.goalReached)),
        ("journey_paused", .exit(.journeyPaused)), ("journey_ended", .exit(.journeyEnded)),
    ]

    @Test func theStoredRulesReadAsTheirTypesAndAnUnknownOneIsRefused() throws {
        #expect(try ClaimRule(stored: "reachable") == .reachable)
        for (stored, exclusion) in Self.exclusions { #expect(try ClaimRule(stored: stored) == .excluded(exclusion)) }
        #expect(Self.exclusions.count == Exclusion.allCases.count, "every exclusion in the table")
        for (stored, exit) in Self.journeyExits { #expect(try JourneyClaimExit(stored: stored) == exit) }
        #expect(Self.journeyExits.count == JourneyExit.allCases.count + 2, "every exit in the table")
        for unknown in ["", "Reachable", "reachable ", "push-off", "sent"] {
            #expect(throws: ClaimSnapshotUnreadable.self) { try ClaimRule(stored: unknown) }
            #expect(throws: ClaimSnapshotUnreadable.self) { try JourneyClaimExit(stored: unknown) }
        }
    }

    /// (rule, journey exit, quiet until) → the decision before the cap; nil: the cap decides.
    static let beforeCap: [(ClaimRule, JourneyClaimExit?, String?, ClaimDecision?)] =
        // The audience's rule comes first, whatever else is said.
        Self.exclusions.map { (.excluded($0.1), .exit(.goalReached), later, .exclude($0.1)) }
        // Then the journey's.
        + Self.journeyExits.map { (.reachable, $0.1, later, .exitJourney($0.1)) }
        + [
            // Then quiet hours: only an end after now puts the push off.
            (.reachable, nil, later, .putOff(until: later)),
            (.reachable, nil, "2026-12-02 12:00:01", .putOff(until: "2026-12-02 12:00:01")),
            (.reachable, nil, "2026-12-02 12:00:00", nil),
            (.reachable, nil, earlier, nil),
            (.reachable, nil, nil, nil),
        ]

    @Test(arguments: beforeCap.indices) func theRulesBeforeTheCap(_ index: Int) {
        let (rule, exit, quiet, expected) = Self.beforeCap[index]
        #expect(ClaimDecision.beforeCap(rule: rule, journeyExit: exit, quietUntil: quiet, now: Self.now) == expected)
    }

    /// (others in the window, cap) → decision: the cap is the most a user gets.
    static let caps: [(Int, Int, ClaimDecision)] = [
        (0, 2, .send), (1, 2, .send), (2, 2, .cap(others: 2)), (3, 2, .cap(others: 3)),
        (0, 1, .send), (1, 1, .cap(others: 1)), (0, 0, .cap(others: 0)),
    ]

    @Test(arguments: caps.indices) func theFrequencyCap(_ index: Int) {
        let (others, cap, expected) = Self.caps[index]
        #expect(ClaimDecision.capped(others: others, cap: cap) == expected)
    }
}
