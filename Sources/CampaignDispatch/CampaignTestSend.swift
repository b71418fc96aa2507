import AdminDomain
import Foundation
import PushClients
import PushTemplates

/// A campaign's message sent now to the devices of one test user, filled for that user: what
/// a marketer checks on a phone before the real send. `TestUsers` decides whether it may go
/// (and audits that); each device's outcome is recorded with its audit row, as `push test` does.
public struct CampaignTestSend: Sendable {
    let log: PushTestLog
    let database: PanelDatabase
    let push: PushProviders
    let templates: PushTemplateLibrary
    public let testUsers: TestUsers

    public init(database: PanelDatabase, push: PushProviders, templates: PushTemplateLibrary, testUsers: TestUsers) {
        self.database = database
        log = PushTestLog(database: database)
        self.push = push
        self.templates = templates
        self.testUsers = testUsers
    }

    public struct Line: Sendable, Equatable {
        public let deviceID: Int64
        public let platform: String
        public let maskedToken: String
        public let outcome: String
        /// The filled text the device was sent.
        public let title: String
        public let body: String
    }

    /// `variant`'s message (A, the campaign's own, by default). Refused with a `CampaignError`
    /// sentence, sending nothing, when a rule says no or the campaign has no such variant.
    public func send(
        _ campaign: CampaignRecord, variant: MessageVariant = .a, toUser userID: Int64, by actor: AuditActor,
        now: Date = Date()
    ) async throws -> [Line] {
        guard let chosen = campaign.message(variant) else {
            throw CampaignError(
                "campaign #\(campaign.id) has no variant \(variant.letter): choose one of "
                    + campaign.experiment.letters.map(\.letter).joined(separator: ", "))
        }
        let text: CampaignText
        do {
            text = try CampaignText(
                title: chosen.title, body: chosen.body, template: chosen.template, library: templates)
        } catch {
            throw CampaignError(error.description)
        }
        let devices = try await testUsers.devicesForTestSend(
            campaign: campaign, variant: variant, userID: userID, by: actor, now: now)
        let recipient = try await RecipientValues.load([userID], in: database, now: now)[userID]
        let filled = text.render(locale: recipient?.locale ?? "en", values: recipient?.values ?? [:])
        var lines: [Line] = []
        for device in devices {
            let outcome: PushOutcome?
            if let provider = PushProviders.Provider(device.provider) {
                let message = PushMessage(
                    deliveryID: "t\(campaign.id)-\(device.id)-\(Int(now.timeIntervalSince1970))",
                    token: device.token ?? "",
                    platform: PushPlatform(device.platform), title: filled.title, body: filled.body,
                    deepLink: campaign.deepLink, timeToLive: .seconds(3_600))
                outcome = await push.send(message, via: provider)
            } else {
                outcome = .failed(reason: "the device's provider \(device.provider) is not one the panel sends to")
            }
            let sentence = outcome?.sentence ?? "not sent: no credentials are configured for \(device.provider)"
            let dead: String? = if case .deadToken(let reason) = outcome { reason } else { nil }
            try await log.record(
                .init(
                    provider: device.provider.storedText, dryRun: false,
                    outcome: "campaign #\(campaign.id) test: \(sentence)",
                    deadReason: dead), for: device, by: actor, now: now)
            lines.append(
                Line(
                    deviceID: device.id, platform: device.platform.storedText, maskedToken: device.maskedToken ?? "",
                    outcome: sentence,
                    title: filled.title, body: filled.body))
        }
        return lines
    }
}
