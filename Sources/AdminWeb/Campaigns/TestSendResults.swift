import AdminDomain
import CampaignDispatch

/// Each variant's latest test send of a draft, per session, so that a test of variant B does
/// not take A's result off the page: the draft's page shows every variant's that this session
/// sent. In memory only (a restart forgets them, as it forgets nothing else that matters),
/// at most `capacity` drafts' worth, the oldest going first.
actor TestSendResults {
    struct Result: Sendable {
        let variant: MessageVariant
        let lines: [CampaignTestSend.Line]
    }

    static let capacity = 500
    private var kept: [String: [MessageVariant: [CampaignTestSend.Line]]] = [:]
    private var order: [String] = []

    private static func key(_ session: String, _ campaign: Int64) -> String {
        "\(SecureToken.sha256Hex(session)) \(campaign)"
    }

    func keep(_ lines: [CampaignTestSend.Line], variant: MessageVariant, campaign: Int64, session: String) {
        let key = Self.key(session, campaign)
        if kept[key] == nil {
            order.append(key)
            if order.count > Self.capacity { kept[order.removeFirst()] = nil }
        }
        kept[key, default: [:]][variant] = lines
    }

    /// This session's results for the draft, by variant letter.
    func results(campaign: Int64, session: String) -> [Result] {
        (kept[Self.key(session, campaign)] ?? [:]).sorted { $0.key < $1.key }.map {
            Result(variant: $0.key, lines: $0.value)
        }
    }
}
