import Foundation

/// One reminder as the health figures need it, read once along the time index: 40 bytes, as
/// a month of a big database's reminders is over a million of them.
struct ReminderRecord: Sendable {
    /// How its `sent_at` compares with `scheduled_for`.
    enum Timing: UInt8, Sendable {
        /// Not sent.
        case none
        /// Both read and are in order: `lateness` holds the seconds between.
        case measured
        /// Sent, but `sent_at` is NULL, a number or text that does not read.
        case unreadable
        /// Sent before it was scheduled: `lateness` is negative.
        case beforeScheduled
    }

    /// `item_kind`: food, document, or anything else.
    enum Kind: UInt8, CaseIterable, Sendable {
        case food, document, other

        var text: String {
            switch self {
            case .food: "food"
            case .document: "document"
            case .other: "other"
            }
        }
    }

    /// `days_before` that is not a whole number.
    static let notANumber = Int32.min

    /// `scheduled_for` in seconds since 1970; meaningless when `readable` is false.
    var scheduled: Int64
    var user: Int64
    var lateness: Int64
    /// `days_before`, or `notANumber`.
    var daysBefore: Int32
    var status: ReminderStatus?
    var timing: Timing
    var opened: Bool
    var readable: Bool
    var kind: Kind

    /// `sent_at` in seconds, when it reads.
    var sentAt: Int64? { timing == .measured || timing == .beforeScheduled ? scheduled + lateness : nil }
}
