/// A campaign's status as the list and its pages show it and filter on: the stored
/// `CampaignStatus`, plus `scheduled`, a launched campaign (stored as `sending`) whose planned
/// time is still ahead. Derived from the planned time each time it is shown, so that no path
/// of the dispatcher has to end it.
public enum CampaignShownStatus: String, CaseIterable, Sendable {
    case draft, materialising, scheduled, sending, paused, cancelled, finished

    public init(_ status: CampaignStatus) {
        switch status {
        case .draft: self = .draft
        case .materialising: self = .materialising
        case .sending: self = .sending
        case .paused: self = .paused
        case .cancelled: self = .cancelled
        case .finished: self = .finished
        }
    }

    /// The status stored for it.
    public var stored: CampaignStatus {
        switch self {
        case .draft: .draft
        case .materialising: .materialising
        case .scheduled, .sending: .sending
        case .paused: .paused
        case .cancelled: .cancelled
        case .finished: .finished
        }
    }
}
