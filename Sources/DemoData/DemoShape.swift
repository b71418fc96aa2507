/// How the seeded users' devices and consent are spread. The defaults are the seeder's own
/// shape (about 1.18 devices a user, two thirds granted, 60% opted in to marketing: 418,000
/// devices reachable by a campaign to everyone at 1,000,000 users). Other shapes reproduce
/// databases measured elsewhere; a default left alone draws exactly the rows it always drew.
public struct DemoShape: Sendable, Equatable, CustomStringConvertible {
    /// Mean devices a user, over all users; nil: the seeder's own spread.
    public var devicesPerUser: Double?
    /// Share of devices whose push permission is granted; nil: two in three.
    public var granted: Double?
    /// Share of users whose settings opt in to marketing pushes; nil: 60%.
    public var optedIn: Double?

    public init(devicesPerUser: Double? = nil, granted: Double? = nil, optedIn: Double? = nil) {
        self.devicesPerUser = devicesPerUser
        self.granted = granted
        self.optedIn = optedIn
    }

    public static let seeder = DemoShape()

    /// The refusal for a value the seeder cannot draw, as a sentence.
    public var problem: String? {
        if let devicesPerUser, !(devicesPerUser >= 0.1 && devicesPerUser <= 8) {
            return "--devices-per-user must be between 0.1 and 8 (it was \(devicesPerUser))"
        }
        if let granted, !(granted >= 0 && granted <= 1) {
            return "--granted must be a share between 0 and 1 (it was \(granted))"
        }
        if let optedIn, !(optedIn >= 0 && optedIn <= 1) {
            return "--opted-in must be a share between 0 and 1 (it was \(optedIn))"
        }
        return nil
    }

    public var description: String {
        func share(_ value: Double?, _ fallback: String) -> String {
            value.map { String(format: "%.0f%%", $0 * 100) } ?? fallback
        }
        let devices = devicesPerUser.map { String(format: "%.2f", $0) } ?? "about 1.18"
        return "\(devices) devices a user, \(share(granted, "67%")) granted, "
            + "\(share(optedIn, "60%")) opted in to marketing"
    }

    /// Devices of a user who has been active: 5% none, the rest one or more so that the mean
    /// over all users is `devicesPerUser` (users who never opened the app keep 0 or 1, mean 0.5).
    func activeUserDeviceCount(_ mean: Double, rng: inout SeedRandom) -> Int {
        if rng.int(0...99) < 5 { return 0 }
        let neverShare = 0.1
        let neverMean = 0.5
        let perActive = max(1, (mean - neverShare * neverMean) / (1 - neverShare) / 0.95)
        let extra = perActive - 1
        return min(1 + Int(extra) + (rng.chance(extra - extra.rounded(.down)) ? 1 : 0), 12)
    }
}
