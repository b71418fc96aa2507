import Foundation

/// A success criterion of the app's spec measured over one window: a share against its target.
public struct ReminderCriterion: Sendable, Equatable, Codable {
    public let numerator: Int
    public let denominator: Int
    /// The share that meets it, e.g. 0.90.
    public let target: Double

    public init(numerator: Int, denominator: Int, target: Double) {
        self.numerator = numerator
        self.denominator = denominator
        self.target = target
    }

    public var value: Double? { denominator > 0 ? Double(numerator) / Double(denominator) : nil }
    /// nil when there is nothing to measure.
    public var met: Bool? { value.map { $0 >= target } }
}
