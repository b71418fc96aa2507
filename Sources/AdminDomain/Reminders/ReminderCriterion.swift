import Foundation

/// A success criterion of the app's spec measured over one window: a share against its target.
public struct ReminderCriterion: Sendable, Equatable, Codable {
    public let numerator: Int
    public let denominator: Int
    /// The share that meets it, e.g. 0.90.
    public let target: Double
    /// Met only above the target ("more than 95%"), not at it.
    public let strictlyAbove: Bool

    public init(numerator: Int, denominator: Int, target: Double, strictlyAbove: Bool = false) {
        self.numerator = numerator
        self.denominator = denominator
        self.target = target
        self.strictlyAbove = strictlyAbove
    }

    public var value: Double? { denominator > 0 ? Double(numerator) / Double(denominator) : nil }
    /// nil when there is nothing to measure.
    public var met: Bool? { value.map { strictlyAbove ? $0 > target : $0 >= target } }
}
