import AdminDomain
import Foundation
import HummingbirdTesting
import TestSupport
import Testing

@testable import AdminWeb

/// Issue 46, finding 13: the composer read `2026-12-02T10:00+05:00` as 10:00 UTC, dropping the
/// offset (and any seconds). A send time is read whole: `Z`, seconds, a fraction of a second
/// and an offset each mean what ISO 8601 says, or the time is refused with a sentence.
@Suite(.timeLimit(.minutes(20))) struct SendAtInstants {
    /// Seconds since 1970 of each instant, worked out apart from the panel (Python's
    /// `datetime.fromisoformat(…).timestamp()`).
    @Test(arguments: [
        ("2026-12-02T10:00", 1_796_205_600),
        ("2026-12-02T10:00Z", 1_796_205_600),
        ("2026-12-02T10:00z", 1_796_205_600),
        ("2026-12-02T10:00:00Z", 1_796_205_600),
        ("2026-12-02T10:00+00:00", 1_796_205_600),
        ("2026-12-02T10:00-00:00", 1_796_205_600),
        ("2026-12-02T10:00+05:00", 1_796_187_600),
        ("2026-12-02T10:00-03:30", 1_796_218_200),
        ("2026-12-02T10:00:30", 1_796_205_630),
        ("2026-12-02T10:00:30.75Z", 1_796_205_630),
        ("2026-12-02T10:00:30.999999+01:00", 1_796_202_030),
        ("2026-12-02T23:30-01:00", 1_796_257_800),
    ])
    func aSendTimeIsTheInstantItSpells(text: String, seconds: Int) {
        #expect(ComposerForm.utcDate(text) == Date(timeIntervalSince1970: TimeInterval(seconds)), "\(text)")
    }

    @Test(arguments: [
        "2026-12-02T10:00+05", "2026-12-02T10:00+0500", "2026-12-02T10:00+25:00", "2026-12-02T10:00+05:60",
        "2026-12-02T10:00 +05:00", "2026-12-02T10:00:61", "2026-12-02T10:00:30.", "2026-12-02T10:00:30.5.5",
        "2026-12-02T10:00UTC", "2026-12-02T10:00Z+01:00", "2026-12-02T10", "2026-12-02T10:00:3", "2026-12-02",
        "2026-02-30T10:00", "2026-12-02T24:00", "2026-12-02T10:00+05:00x",
    ])
    func anythingElseIsNoSendTime(text: String) {
        #expect(ComposerForm.utcDate(text) == nil, "\(text)")
    }

    /// Through the composer: the draft is due at the instant typed, shown in UTC.
    @Test func theComposerStoresAnOffsetTimeInUTC() async throws {
        let panel = try await TestPanel(areas: [.campaigns])
        defer { panel.remove() }
        // Two days ahead, on a whole minute, written as it is at +05:00.
        let due = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 + 2 * 86_400
        let local = SQLiteTime.string(Date(timeIntervalSince1970: due + 5 * 3_600))
        let typed = String(local.prefix(16)).replacingOccurrences(of: " ", with: "T") + "+05:00"
        try await panel.test { client in
            let cookie = try await panel.signIn(client)
            let created = try await client.postSigned(
                "/campaigns/new",
                [("title", "t"), ("body", "b"), ("ttl", "86400"), ("when", "at"), ("send_at", typed)],
                session: cookie)
            #expect(created.status == .seeOther, "\(typed)")
            let page = try await client.follow(created, cookie: cookie)
            let utc = SQLiteTime.string(Date(timeIntervalSince1970: due))
            #expect(page.text.contains(" at \(utc.dropFirst(11).prefix(5)) UTC"), "shown in UTC")
            let refused = try await client.postSigned(
                "/campaigns/new",
                [("title", "t"), ("body", "b"), ("ttl", "86400"), ("when", "at"), ("send_at", typed + "0")],
                session: cookie)
            #expect(refused.status == .badRequest)
            #expect(refused.text.contains("an offset such as +05:00"), "the sentence says what an offset looks like")
        }
        let campaign = try #require(try await panel.areas.campaigns.campaigns.list().first)
        #expect(campaign.schedule == .at(Date(timeIntervalSince1970: due)), "\(typed)")
    }
}
