import AdminDomain
import Foundation

/// The journeys the demo ships, one of each trigger, active from the demo's first start, and
/// the trigger values `JourneyMover` moves the demo's users across.
public enum DemoJourneys {
    public static let inactiveDays = 30
    public static let firstDays = 2, fewerItems = 3
    public static let endingDays = 3
    /// Between 9:00 and 21:00 in each user's zone: at any hour of the demo some zones are in it,
    /// so some pushes go at once and others wait for their morning (and may exit meanwhile).
    public static let sendAt = JourneySendAt.window(from: 9, to: 21)
    /// Recorded as the actor of their creation and activation.
    public static let actor = AuditActor(identity: nil, clientAddress: nil, nobodyName: "demo")

    public static var drafts: [JourneyDraft] {
        [
            JourneyDraft(
                campaign: CampaignDraft(
                    title: "We miss you",
                    body: "Your fridge has news: see what expires this week before it goes to waste.",
                    name: "Win-back after \(inactiveDays) days",
                    experiment: CampaignExperiment(holdoutPercent: 10, goal: .anyActivity, goalDays: 7)),
                rules: JourneyRules(trigger: .inactiveDays(inactiveDays), sendAt: sendAt, reentryDays: 60)),
            JourneyDraft(
                campaign: CampaignDraft(
                    title: "Your premium ends soon", body: "Keep unlimited items and family sharing: renew in the app.",
                    name: "Lapsing premium",
                    experiment: CampaignExperiment(holdoutPercent: 10, goal: .upgraded, goalDays: 7)),
                rules: JourneyRules(trigger: .subscriptionEnding(endingDays), sendAt: sendAt, reentryDays: 30)),
            JourneyDraft(
                campaign: CampaignDraft(
                    title: "Add your first items",
                    body: "Scan a barcode and we remind you before it expires. It takes 5 seconds.",
                    name: "First-week nudge",
                    experiment: CampaignExperiment(holdoutPercent: 10, goal: .itemAdded, goalDays: 3)),
                rules: JourneyRules(trigger: .firstDays(firstDays, fewerItems: fewerItems), sendAt: sendAt)),
        ]
    }

    /// What `seed` did, for the demo to say.
    public struct Seeded: Sendable, Equatable {
        public var active: [String] = []
        /// Created but left drafts, each with the sentence that refused its activation.
        public var drafts: [String] = []
    }

    /// Creates and activates the demo's journeys, unless the database has journeys already
    /// (staff may have ended or changed them: their choice is kept). A journey whose
    /// activation is refused (real credentials of one provider only) stays a draft, said.
    public static func seed(_ journeys: Journeys, now: Date = Date()) async throws -> Seeded? {
        guard try await journeys.list(limit: 1).isEmpty else { return nil }
        var seeded = Seeded()
        for draft in drafts {
            let id = try await journeys.create(draft, by: actor, now: now)
            let name = draft.campaign.name ?? draft.campaign.title
            do {
                try await journeys.activate(id, by: actor, now: now)
                seeded.active.append(name)
            } catch let error as CampaignError {
                seeded.drafts.append("\(name): \(error.description)")
            }
        }
        return seeded
    }
}
