import AdminDomain
import DemoData
import Foundation

/// A signed-in admin for the load, made straight in the panel's tables through the domain:
/// an account with a random password nobody types, a confirmed second factor, and a session.
public struct LoadFixture: Sendable {
    public let cookie: String
    public let typicalUserID: Int64
    public let whaleUserID: Int64
    /// A campaign being composed (its page counts the audience) and one launched.
    public let draftCampaignID: Int64
    public let launchedCampaignID: Int64
    /// A win-back journey, active when this server could activate it: its page builds the
    /// report and the dry run.
    public let journeyID: Int64

    public static let email = "load-test@example.com"

    public static func prepare(databasePath: String) async throws -> LoadFixture {
        let database = try await PanelDatabase.open(path: databasePath)
        let (cookie, adminID) = try await signIn(database)
        let campaigns = Campaigns(database: database)
        let actor = AuditActor.staff(StaffIdentity(adminID: adminID, email: email, role: .admin), from: "127.0.0.1")
        let draft = try await campaigns.create(
            CampaignDraft(
                title: "Load {{display_name}}", body: "{{first_expiring_item}} expires in {{days_left}} days",
                segment: CampaignSegment(bucket: .active)), by: actor)
        // Measured as marketing measures: a holdout, a goal and a second variant, so that its
        // page carries the impact report.
        let launched = try await campaigns.create(
            CampaignDraft(
                title: "Load launched", body: "Hello {{display_name}}", segment: CampaignSegment(plan: .premium),
                experiment: CampaignExperiment(
                    holdoutPercent: 10, goal: .anyActivity, goalDays: 3,
                    variants: [VariantMessage(variant: .b, title: "Load launched B", body: "Hi {{display_name}}")])),
            by: actor)
        try await campaigns.begin(launched, schedule: .now, by: actor)
        try await campaigns.resumeLaunches()
        // One test user, so that the test users page and the draft's test send list someone
        // (kept from an earlier run on the same copy: adding it again is refused).
        if try await TestUsers(database: database).list().isEmpty,
            let email = try await database.read({ db in
                try String.fetchOne(db, sql: "SELECT email FROM users WHERE id = 50")
            })
        {
            _ = try await TestUsers(database: database).add(email: email, by: actor)
        }
        let journeys = Journeys(campaigns: campaigns)
        let journey = try await journeys.create(
            JourneyDraft(
                campaign: CampaignDraft(
                    title: "Load win-back", body: "We miss you, {{display_name}}",
                    experiment: CampaignExperiment(holdoutPercent: 10, goal: .anyActivity, goalDays: 7)),
                rules: JourneyRules(trigger: .inactiveDays(30))), by: actor)
        // A server without providers keeps it a draft: its page is still measured.
        try? await journeys.activate(journey, by: actor)
        return LoadFixture(
            cookie: cookie, typicalUserID: 50, whaleUserID: DemoSeeder.whaleUserID,
            draftCampaignID: draft, launchedCampaignID: launched, journeyID: journey)
    }
}

extension LoadFixture {
    /// The signed-in admin alone, for benchmarks that need no campaigns: the session cookie
    /// and the account's id.
    public static func signIn(_ database: PanelDatabase) async throws -> (cookie: String, adminID: Int64) {
        // Cheap parameters: this password is never typed, so its hash is never checked.
        let hasher = PasswordHasher(parameters: ScryptParameters(logN: 4, r: 8, p: 1))
        let admins = AdminStore(database: database, hasher: hasher)
        let password = (0..<2).map { _ in UUID().uuidString }.joined()
        var admin = try await admins.find(email: email)
        if admin == nil { admin = try await admins.create(email: email, password: password, role: .admin) }
        guard let adminID = admin?.id else { throw LoadFixtureError.noAccountID }
        let twoFactor = TwoFactorStore(database: database)
        if try await !twoFactor.status(adminID: adminID).isEnabled {
            let secret = try await twoFactor.beginEnrolment(adminID: adminID)
            _ = try await AccountSecurity(database: database, hasher: hasher).enableTwoFactor(
                StaffIdentity(adminID: adminID, email: email, role: .admin),
                code: TOTPCode.code(secret: secret, step: TOTPCode.step(at: Date())), session: nil, from: "127.0.0.1")
        }
        let token = try await SessionStore(database: database, policy: SessionPolicy())
            .create(adminID: adminID, clientAddress: "127.0.0.1", userAgent: "panel-load")
        return ("panel_session=\(token)", adminID)
    }
}

enum LoadFixtureError: Error {
    case noAccountID
}
