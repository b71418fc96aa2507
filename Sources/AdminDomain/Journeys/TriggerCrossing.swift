/// One user crossing a trigger: who, and the occurrence it was drawn from (the stored
/// `last_active_at` or `created_at`, as the backend wrote it), which makes an entry unique
/// per journey and user: a later crossing is another occurrence.
public struct TriggerCrossing: Sendable, Equatable, Hashable {
    public let userID: Int64
    public let occurrence: String

    public init(userID: Int64, occurrence: String) {
        self.userID = userID
        self.occurrence = occurrence
    }
}
