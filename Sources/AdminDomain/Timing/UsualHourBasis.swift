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

    /// The one order of the fallbacks, for the freeze, the journeys and the profile. `own`:
    /// the user's own hour when they have `UsualHour.ownDays` active days, else nil; `peer` is
    /// only looked up when there is no own hour.
    static func resolve(own: Int?, peer: () throws -> Int?, everyone: Int?) rethrows -> (
        basis: UsualHourBasis, hour: Int?
    ) {
        if let own { return (.own, own) }
        if let peer = try peer() { return (.peers, peer) }
        if let everyone { return (.everyone, everyone) }
        return (.none, nil)
    }
}
