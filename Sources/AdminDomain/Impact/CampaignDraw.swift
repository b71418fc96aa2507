import Foundation
import GRDB

/// Who is held out, who is in the test share and which variant each recipient gets: a
/// deterministic draw on (campaign, user), so a freeze cut short and taken up again, or a
/// report computed again, draws everyone the same. Three independent draws (a salt each),
/// so that the holdout, the test share and the variant are unrelated.
public enum CampaignDraw {
    /// 0..<10,000, evenly spread (splitmix64 of the pair and the salt).
    public static func draw(campaign: Int64, user: Int64, salt: UInt64) -> Int {
        var z =
            UInt64(bitPattern: campaign) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(bitPattern: user) &* 0xC2B2_AE3D_27D4_EB4F
            ^ salt
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Int(z % 10_000)
    }

    static let holdoutSalt: UInt64 = 0x686F_6C64
    static let testSalt: UInt64 = 0x7465_7374
    static let variantSalt: UInt64 = 0x7661_7269

    /// What a reachable user of the campaign is drawn into.
    public enum Arm: Equatable, Sendable {
        case holdout
        case variant(MessageVariant)
        /// Outside the test share: gets the winner once it is chosen.
        case rest

        /// As `panel_campaign_members.arm` stores it.
        public var stored: String {
            switch self {
            case .holdout: "holdout"
            case .variant(let variant): variant.rawValue
            case .rest: "rest"
            }
        }

        public init?(stored: String) {
            switch stored {
            case "holdout": self = .holdout
            case "rest": self = .rest
            default:
                guard let variant = MessageVariant(rawValue: stored) else { return nil }
                self = .variant(variant)
            }
        }
    }

    /// - Parameters:
    ///   - variants: how many messages (1 to 4, A first).
    ///   - testPercent: the share of the recipients the variants go to first; nil: all.
    public static func arm(campaign: Int64, user: Int64, holdoutPercent: Int, variants: Int, testPercent: Int?) -> Arm {
        if draw(campaign: campaign, user: user, salt: holdoutSalt) < holdoutPercent * 100 { return .holdout }
        if let testPercent, draw(campaign: campaign, user: user, salt: testSalt) >= testPercent * 100 { return .rest }
        let letters: [MessageVariant] = [.a, .b, .c, .d]
        let count = min(max(variants, 1), letters.count)
        return .variant(letters[draw(campaign: campaign, user: user, salt: variantSalt) % count])
    }

    /// `panel_arm(campaign, user, holdout_percent, variants, test_percent)`: the freeze's draw.
    static let sqlArm = DatabaseFunction("panel_arm", argumentCount: 5, pure: true) { values in
        guard let campaign = Int64.fromDatabaseValue(values[0]), let user = Int64.fromDatabaseValue(values[1]) else {
            return nil
        }
        let holdout = Int.fromDatabaseValue(values[2]) ?? 0
        let variants = Int.fromDatabaseValue(values[3]) ?? 1
        let test = Int.fromDatabaseValue(values[4])
        return arm(campaign: campaign, user: user, holdoutPercent: holdout, variants: variants, testPercent: test)
            .stored
    }
}
