/// A throttle entry on the failed sign-ins page: locked until a time, or slowed only.
enum SignInLockState: String, CaseIterable, Sendable {
    case locked, slowed

    init(lockedUntil: String?) {
        self = lockedUntil == nil ? .slowed : .locked
    }
}
