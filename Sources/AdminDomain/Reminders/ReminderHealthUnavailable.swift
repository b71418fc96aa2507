import Foundation

/// No reminder figures yet: the first count has not finished.
public struct ReminderHealthUnavailable: Error, CustomStringConvertible {
    public var description: String { "The reminder figures are not counted yet." }
}
