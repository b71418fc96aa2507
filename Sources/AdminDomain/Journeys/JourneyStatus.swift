/// A journey's status, as its campaign row stores it: a draft, `sending` while active,
/// `paused`, and `finished` once ended. Ended is for good: entries stop, nothing more is sent.
public enum JourneyStatus: String, CaseIterable, Sendable {
    case draft, active, paused, ended

    public init?(_ stored: CampaignStatus) {
        switch stored {
        case .draft: self = .draft
        case .sending: self = .active
        case .paused: self = .paused
        case .finished, .cancelled: self = .ended
        case .materialising: return nil
        }
    }

    public var stored: CampaignStatus {
        switch self {
        case .draft: .draft
        case .active: .sending
        case .paused: .paused
        case .ended: .finished
        }
    }
}
