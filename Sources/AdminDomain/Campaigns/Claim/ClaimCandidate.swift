import Foundation
import GRDB

/// One due delivery as the claim's read found it (step one): its row, its device, the first
/// rule of the audience that no longer holds (`reachable` when all do), the end of its
/// user's quiet hours (now when outside them), the journey's verdict, and the user's pushes
/// in the cap's window before this claim. Everything the decision needs; nothing it reads.
struct ClaimCandidate: Sendable, Equatable {
    var id, campaignID, deviceID, userID: Int64
    var attempts: Int
    /// As stored: nil is the campaign's own message (launched before variants).
    var variant: String?
    var token: String?
    var platform: Stored<Platform>?
    var provider: Stored<PushProvider>?
    var rule: ClaimRule
    var quietUntil: String?
    /// The journey entry this delivery is for (nil for a campaign's).
    var entryID: Int64?
    /// Its campaign is a journey: its pushes count for the cap by their entries.
    var journey = false
    /// Why a journey's own rules stop it now, when they do.
    var journeyExit: JourneyClaimExit?
    /// The campaigns and journey entries whose pushes reached the user in the cap's window
    /// (read for rows the audience's rules let through; its own are set aside when counted).
    var capKeys: Set<CapKey> = []
    /// What the claim sees of the consent it sends on (`ConsentBits`), kept on the row it sends.
    var consent = ConsentBits([.marketing, .push, .permission]).rawValue

    /// The message it is to carry, or nil when its variant is a text no `MessageVariant` knows.
    var message: ClaimMessageKey? {
        guard let variant else { return ClaimMessageKey(campaign: campaignID, variant: .a) }
        return MessageVariant(rawValue: variant).map { ClaimMessageKey(campaign: campaignID, variant: $0) }
    }

    /// What its push counts as for the cap once sent: a campaign once, a journey by its entry.
    var capKey: CapKey? { journey ? entryID.map(CapKey.entry) : .campaign(campaignID) }

    init(
        id: Int64, campaignID: Int64, deviceID: Int64, userID: Int64, attempts: Int = 0, variant: String? = nil,
        token: String? = "token", platform: Stored<Platform>? = .known(.ios),
        provider: Stored<PushProvider>? = .known(.apns), rule: ClaimRule = .reachable, quietUntil: String? = nil,
        entryID: Int64? = nil, journey: Bool = false
    ) {
        self.id = id
        self.campaignID = campaignID
        self.deviceID = deviceID
        self.userID = userID
        self.attempts = attempts
        self.variant = variant
        self.token = token
        self.platform = platform
        self.provider = provider
        self.rule = rule
        self.quietUntil = quietUntil
        self.entryID = entryID
        self.journey = journey
    }

    /// Read by name: a look-up among a dozen columns, nothing beside the claim's writes.
    init(_ row: Row, journey: Bool) throws {
        let delivery = PanelDelivery.Columns.self
        id = row[delivery.id]
        campaignID = row[delivery.campaignID]
        deviceID = row[delivery.deviceID]
        userID = row[delivery.userID]
        attempts = row[delivery.attempts]
        variant = row[delivery.variant]
        token = try row.decode(String?.self, forColumn: "push_token")
        platform = try row.decode(Stored<Platform>?.self, forColumn: "platform")
        provider = try row.decode(Stored<PushProvider>?.self, forColumn: "push_provider")
        rule = try ClaimRule(stored: row["rule"])
        quietUntil = row["quiet_until"]
        entryID = row[delivery.entryID]
        consent = row["consent"]
        self.journey = journey
    }
}

/// A push that counts for the frequency cap: a campaign's (once, however many devices), or
/// a journey entry's (a journey entered again pushes again).
enum CapKey: Hashable, Sendable {
    case campaign(Int64)
    case entry(Int64)
}

/// Which message a delivery carries: its campaign's, in the variant drawn for it.
struct ClaimMessageKey: Hashable, Sendable {
    let campaign: Int64
    let variant: MessageVariant
}

/// A message's text as the claim hands it to the dispatcher.
struct ClaimMessage: Sendable, Equatable {
    let title, body: String
    let deepLink: String?
    let timeToLive: Int
    let template: String?
}
