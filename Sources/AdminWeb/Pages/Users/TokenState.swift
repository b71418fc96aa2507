import AdminDomain

/// A device's push token as support sees it: none stored, live (no provider called it
/// dead), or dead (a provider answered a push the panel sent with "unregistered").
enum TokenState: String, CaseIterable, Sendable {
    case none, live, dead

    init(_ device: UserProfile.Device) {
        self = device.maskedToken == nil ? .none : device.deadToken == nil ? .live : .dead
    }
}
