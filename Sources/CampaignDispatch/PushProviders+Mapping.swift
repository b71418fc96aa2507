import AdminDomain
import PushClients

extension PushProviders.Provider {
    /// The client for a device's stored provider; nil for one the panel does not send to.
    public init?(_ stored: Stored<PushProvider>) {
        guard let provider = stored.known.flatMap({ Self(rawValue: $0.rawValue) }) else { return nil }
        self = provider
    }
}

extension PushPlatform {
    /// A platform the app's table should not hold gets both of FCM's per-platform blocks.
    public init(_ stored: Stored<Platform>) {
        self = switch stored.known {
        case .ios: .ios
        case .android: .android
        case nil: .other
        }
    }
}
