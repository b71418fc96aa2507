import AdminDomain
import Foundation
import Testing

@testable import AdminWeb

/// Audience previews go through a bounded queue: at most `maxRunning` counted at once, a
/// staff member's own draft before others', each draft counted once for its inputs.
@Suite(.timeLimit(.minutes(20))) struct PreviewQueueTests {
    @Test func previewsAreCountedOneAtATimeOwnDraftsFirstAndOnceForTheirInputs() async throws {
        let panel = try await TestPanel(areas: [.campaigns], users: 300)
        defer { panel.remove() }
        let adminID = try #require(try await panel.areas.auth.admins.find(email: TestPanel.email)?.id)
        let mine = AuditActor.staff(StaffIdentity(adminID: adminID, email: TestPanel.email, role: .admin), from: nil)
        let campaigns = try panel.areas.campaigns.campaigns
        var others: [CampaignRecord] = []
        for index in 0..<6 {
            let id = try await campaigns.create(
                CampaignDraft(
                    title: "other \(index)", body: "b",
                    segment: CampaignSegment(plan: index % 2 == 0 ? .free : .premium)),
                by: .commandLine)
            others.append(try #require(try await campaigns.find(id)))
        }
        let ownID = try await campaigns.create(CampaignDraft(title: "mine", body: "b"), by: mine)
        let own = try #require(try await campaigns.find(ownID))
        // The counts run in a BackgroundWork service, as in the panel's group.
        let work = BackgroundWork()
        let running = Task { await work.run() }
        defer { running.cancel() }
        let previews = AudiencePreviews(
            audience: Audience(), defaultTimeZone: "UTC", database: panel.areas.database, maxRunning: 1, work: work)

        for other in others { _ = await previews.state(for: other, requestedBy: TestPanel.email) }
        // One is being counted, five wait; the author's own draft goes before them all.
        if case .queued(let ahead) = await previews.state(for: own, requestedBy: TestPanel.email) {
            #expect(ahead == 0)
        } else {
            Issue.record("the own draft was not queued")
        }
        if case .queued(let ahead) = await previews.state(for: others[5], requestedBy: TestPanel.email) {
            #expect(ahead == 5)
        }

        var most = 0
        // Far off: a hang is caught, a slow machine is not failed (the counts run at low priority).
        let deadline = ContinuousClock.now + .seconds(300)
        while await previews.pending > 0, ContinuousClock.now < deadline {
            most = max(most, await previews.runningNow)
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(await previews.pending == 0, "the queue drained")
        #expect(most == 1, "never more than one counted at once")
        for campaign in others + [own] {
            guard case .ready = await previews.state(for: campaign, requestedBy: TestPanel.email) else {
                Issue.record("#\(campaign.id) was not ready")
                continue
            }
        }
        #expect(await previews.pending == 0, "asking again for the same inputs counts nothing again")

        // New inputs (the draft edited) count it again.
        try await campaigns.edit(
            ownID, to: CampaignDraft(title: "mine, edited", body: "b", segment: CampaignSegment(plan: .free)), by: mine)
        let edited = try #require(try await campaigns.find(ownID))
        switch await previews.state(for: edited, requestedBy: TestPanel.email) {
        case .queued, .counting: break
        default: Issue.record("an edited draft was not counted again")
        }
    }
}
