import GRDB

/// One tick of the demo's simulated backend, in the caller's write transaction: the trickle of
/// new reminders always, the sender unless stalled (`--stall-reminders`), when reminders fall
/// due and stay 'scheduled' so that the health page and its banner show them overdue.
public struct ReminderBackend: Sendable {
    public let stalled: Bool
    public private(set) var sender: ReminderSender
    public private(set) var trickle: ReminderTrickle

    public init(stalled: Bool, perSecond: Double = 1, seed: UInt64) {
        self.stalled = stalled
        sender = ReminderSender(seed: seed)
        trickle = ReminderTrickle(perSecond: perSecond, seed: seed &+ 1)
    }

    public mutating func tick(now: Int64, in db: Database) throws {
        try trickle.tick(now: now, in: db)
        if !stalled { try sender.tick(now: now, in: db) }
    }
}
