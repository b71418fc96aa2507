import Foundation
import HTMLRender
import HummingbirdTesting
import TestSupport
import Testing

@testable import AdminDomain
@testable import AdminWeb

/// Issue 46, finding 6: sentences that said what did not hold.
@Suite(.timeLimit(.minutes(20))) struct MisleadingSentences {
    /// Support and marketing sign in without a second factor unless the panel requires one
    /// of everyone: a reset does not make them set one up again.
    @Test func resettingTheSecondFactorOfARoleThatNeedsNoneDoesNotSayTheyAreAsked() async throws {
        let panel = try await TestPanel(areas: [])
        defer { panel.remove() }
        try await panel.addStaff()
        let supportID = try #require(try await panel.areas.auth.admins.find(email: TestPanel.supportEmail)?.id)
        try await panel.test { client in
            let admin = try await panel.signIn(client)
            let confirm = try await client.get("/admins/\(supportID)/reset-two-factor", cookie: admin)
            #expect(confirm.status == .ok)
            #expect(!confirm.text.contains("They set it up again at their next sign-in"))
            #expect(confirm.text.contains("they are not asked to set it up again"))
            let done = try await client.postSigned("/admins/\(supportID)/reset-two-factor", session: admin)
            let page = try await client.get(try #require(done.headers[.location]), cookie: admin)
            #expect(!page.text.contains("they set it up again at their next sign-in"))
            #expect(page.text.contains("are not asked to set it up again"))
        }
    }

    @Test func aUserWithTooFewDaysIsNotSaidToBeNobody() {
        let hour = UserUsualHour(
            hour: nil, basis: .none, activeDays: 2, ownHour: nil, ownHourDays: 0, peers: nil, peerPlatform: nil,
            peerLocale: nil, movedTo: nil, building: false)
        #expect(!hour.sentence.contains("nobody has"))
        #expect(hour.sentence.hasPrefix("none yet: 2 active days of their own in 60 (5 needed)"), "\(hour.sentence)")
    }

    /// 4 of 13 held out under a 10% holdout: the draw is per entry, about 1.3 expected.
    @Test func aDryRunsHoldoutSaysTheDrawIsPerEntryAndWhatIsExpected() throws {
        var run = JourneyDryRun()
        run.heldOut = 4
        run.toSend = 9
        let sentence = try #require(JourneyPageView.holdoutSentence(run, percent: 10))
        #expect(sentence.contains("drawn for each entry on its own, with a 10% chance"))
        #expect(sentence.contains("of these 13 about 1.3 are expected to be held out, and 4 were drawn"))
        #expect(JourneyPageView.holdoutSentence(run, percent: 0) == nil)
    }

    /// Finding 4: the banner said "Since" the panel's start for a backend stopped ten days ago,
    /// and filled a phone's first screen.
    @Test func theAlertBannerIsOneLineThatOpensAndSaysHowOldEachAlertIs() throws {
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let banner = ReminderAlertBanner(alerts: [
            ReminderAlert(
                kind: .nothingSent, sentence: "No reminder was sent in the last hour while 58 fell due; the last was.",
                since: now.addingTimeInterval(-10 * 86_400 - 60), began: .fromData, asOf: now),
            ReminderAlert(
                kind: .onTimeBelowTarget, sentence: "Only 2.0% of the reminders were sent on time.",
                since: now.addingTimeInterval(-300), began: .firstSeen, asOf: now),
        ])
        let html = String(decoding: HTMLDocument(root: banner.content).render(), as: UTF8.self)
        #expect(html.contains("<details><summary><strong>2 reminder alerts:</strong>"), "folded")
        #expect(html.contains("No reminder was sent in the last hour while 58 fell due, for 10 days."))
        #expect(html.contains("Since <time") && html.contains("(10 days)."))
        #expect(html.contains("First seen by the panel at <time") && html.contains("(5 minutes ago); it may have"))
    }
}
