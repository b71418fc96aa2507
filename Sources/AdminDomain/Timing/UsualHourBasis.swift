/// What a recipient's send hour was taken from, most specific first.
public enum UsualHourBasis: String, Sendable, CaseIterable, Codable {
    /// Their own activity: at least `UsualHour.ownDays` active days in the window.
    case own
    /// The most common own hour of users of the same platform and locale.
    case peers
    /// The most common own hour of all users who have one.
    case everyone
    /// Nobody has an hour of their own yet: sent at the fixed time.
    case none

    public var label: String {
        switch self {
        case .own: "their own activity"
        case .peers: "users of the same platform and locale"
        case .everyone: "everyone's busiest hour"
        case .none: "no data: the fixed time"
        }
    }
}
