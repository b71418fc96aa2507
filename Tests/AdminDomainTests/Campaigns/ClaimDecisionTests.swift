import Foundation
import Testing

@testable import AdminDomain

/// The claim's decision for one due delivery, from its snapshot alone, table by table. The
/// expected order is the outbox's documented one (docs/campaigns.md, "Checked again when due"): the audience's
/// rules, then the journey's, then quiet hours, then the frequency cap; the stored texts are
/// those the claim's SQL writes (`Audience.classification`, `JourneyClaimCheck`).
@Suite(.timeLimit(.minutes(20))) struct ClaimDecisions {
    static let now = PanelTime(secondsSinceEpoch: 1_796_212_800)  // 2026-12-02 12:00:00 UTC
    static let later = "2026-12-02 18:00:00"
    static let earlier = "2026-12-02 06:00:00"

    static let exclusions: [(String, Exclusion)] = [
        ("account_closed", .accountClosed), ("push_off", .pushOff), ("marketing_off", .marketingOff),
        ("no_device", .noDevice), ("no_permission", .noPermission), ("unknown_provider", .unknownProvider),
        ("provider_not_configured", .providerNotConfigured), ("dead_token", .deadToken),
        ("global_control", .globalControl), ("frequency_cap", .frequencyCap),
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

    // MARK: The decider over a claim's rows (no database)

    static let decider = ClaimDecider(now: now, cap: 2, limit: 256)
    static let messages: Set<ClaimMessageKey> = [
        ClaimMessageKey(campaign: 7, variant: .a), ClaimMessageKey(campaign: 7, variant: .b),
        ClaimMessageKey(campaign: 9, variant: .a),
    ]

    /// A reachable row of campaign 7 for user 1, changed by `change`.
    static func row(_ change: (inout ClaimCandidate) -> Void = { _ in }) -> ClaimCandidate {
        var row = ClaimCandidate(id: 100, campaignID: 7, deviceID: 50, userID: 1)
        change(&row)
        return row
    }

    /// One row alone → its decision: each rule in its documented order, and each boundary.
    static let single: [(String, ClaimCandidate, ClaimDecision)] =
        Self.exclusions.map { name, exclusion in
            // The audience's rule first, even for a row with no token and over the cap.
            (
                "excluded: \(name)",
                row {
                    $0.rule = .excluded(exclusion)
                    $0.token = nil
                    $0.capKeys = [.campaign(1), .campaign(2)]
                }, .exclude(exclusion)
            )
        }
        + Self.journeyExits.map { name, exit in
            (
                "journey: \(name)",
                row {
                    $0.journeyExit = exit
                    $0.quietUntil = later
                }, .exitJourney(exit)
            )
        }
        + [
            (
                "quiet hours end later: put off",
                row {
                    $0.quietUntil = later
                    $0.token = nil
                }, .putOff(until: later)
            ),
            ("quiet hours end now: sent", row { $0.quietUntil = "2026-12-02 12:00:00" }, .send),
            ("no token", row { $0.token = nil }, .fail(.noToken)),
            ("an empty token", row { $0.token = "" }, .fail(.noToken)),
            ("no platform", row { $0.platform = nil }, .fail(.noToken)),
            ("no provider", row { $0.provider = nil }, .fail(.noToken)),
            ("variant b, which campaign 7 has", row { $0.variant = "b" }, .send),
            ("variant c, which campaign 7 has not", row { $0.variant = "c" }, .fail(.noMessage(variant: "c"))),
            ("a variant text nobody knows", row { $0.variant = "B" }, .fail(.noMessage(variant: "B"))),
            ("a campaign whose message is gone", row { $0.campaignID = 8 }, .fail(.noMessage(variant: "a"))),
            // The cap: 2 other campaigns' pushes (or journey entries') in the window.
            ("one other push", row { $0.capKeys = [.campaign(3)] }, .send),
            ("two other campaigns", row { $0.capKeys = [.campaign(3), .campaign(4)] }, .cap(others: 2)),
            ("a campaign and a journey entry", row { $0.capKeys = [.campaign(3), .entry(40)] }, .cap(others: 2)),
            ("its own campaign is not another", row { $0.capKeys = [.campaign(7), .campaign(3)] }, .send),
            (
                "a journey row: its own entry is not another, the same journey's other entry is",
                row {
                    $0.journey = true
                    $0.entryID = 40
                    $0.capKeys = [.entry(40), .entry(41)]
                }, .send
            ),
            (
                "a journey row with two other entries",
                row {
                    $0.journey = true
                    $0.entryID = 40
                    $0.capKeys = [.entry(41), .entry(42)]
                }, .cap(others: 2)
            ),
        ]

    @Test(arguments: single.indices) func oneRowAlone(_ index: Int) {
        let (name, row, expected) = Self.single[index]
        let decided = Self.decider.decide([row], messages: Self.messages)
        #expect(decided.map(\.1) == [expected], "\(name)")
    }

    @Test func aPushSentEarlierInTheClaimCountsForTheUsersLaterRows() {
        let first = Self.row { $0.capKeys = [.campaign(3)] }
        // User 1 again, in campaign 9: campaign 3 before the claim and 7 in it make 2.
        let second = ClaimCandidate(id: 101, campaignID: 9, deviceID: 51, userID: 1)
        var secondKeys = second
        secondKeys.capKeys = [.campaign(3)]
        // Another device of the same campaign for the same user: its own campaign, still sent.
        var sameCampaign = first
        sameCampaign.id = 102
        sameCampaign.deviceID = 52
        // Another user is not touched by user 1's pushes.
        var otherUser = secondKeys
        otherUser.id = 103
        otherUser.userID = 2
        let decided = Self.decider.decide([first, secondKeys, sameCampaign, otherUser], messages: Self.messages)
        #expect(decided.map(\.1) == [.send, .cap(others: 2), .send, .send])
    }

    @Test func aRowNotSentDoesNotCountForTheCap() {
        let excluded = Self.row { $0.rule = .excluded(.pushOff) }
        let putOff = ClaimCandidate(id: 101, campaignID: 9, deviceID: 51, userID: 1, quietUntil: Self.later)
        var last = ClaimCandidate(id: 102, campaignID: 10, deviceID: 52, userID: 1)
        last.capKeys = [.campaign(3)]
        let messages = Self.messages.union([ClaimMessageKey(campaign: 10, variant: .a)])
        let decided = Self.decider.decide([excluded, putOff, last], messages: messages)
        #expect(decided.map(\.1) == [.exclude(.pushOff), .putOff(until: Self.later), .send])
    }

    @Test func aJourneyEntrySentCountsOnceForTheUsersOtherJourneyRows() {
        // Two devices of entry 40, then entry 41 of another journey, with one campaign push before.
        var device1 = ClaimCandidate(id: 200, campaignID: 9, deviceID: 60, userID: 5, entryID: 40, journey: true)
        device1.capKeys = [.campaign(3)]
        var device2 = device1
        device2.id = 201
        device2.deviceID = 61
        var other = ClaimCandidate(id: 202, campaignID: 7, deviceID: 60, userID: 5, entryID: 41, journey: true)
        other.capKeys = [.campaign(3)]
        let decided = Self.decider.decide([device1, device2, other], messages: Self.messages)
        #expect(decided.map(\.1) == [.send, .send, .cap(others: 2)])
    }

    @Test func atMostLimitAreSentAndTheRowsAfterAreLeftAsTheyAre() {
        let decider = ClaimDecider(now: Self.now, cap: 2, limit: 2)
        let rows = (0..<4).map { ClaimCandidate(id: 300 + $0, campaignID: 7, deviceID: 70 + $0, userID: 10 + $0) }
        var excluded = rows[1]
        excluded.rule = .excluded(.noDevice)
        let decided = decider.decide([rows[0], excluded, rows[2], rows[3]], messages: Self.messages)
        // The excluded row does not use the limit; the fourth is not decided.
        #expect(decided.map(\.0.id) == [300, 301, 302])
        #expect(decided.map(\.1) == [.send, .exclude(.noDevice), .send])
    }
}
