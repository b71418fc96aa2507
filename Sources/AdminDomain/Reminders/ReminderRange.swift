import Foundation

/// The windows the reminder health page reads: the last hour, day, week and month up to now.
public enum ReminderRange: String, CaseIterable, Sendable, Codable {
    case hour = "1h"
    case day = "24h"
    case week = "7d"
    case month = "30d"

    public var seconds: Int64 {
        switch self {
        case .hour: 3_600
        case .day: 86_400
        case .week: 7 * 86_400
        case .month: 30 * 86_400
        }
    }

    public var label: String {
        switch self {
        case .hour: "Last hour"
        case .day: "Last 24 hours"
        case .week: "Last 7 days"
        case .month: "Last 30 days"
        }
    }

    /// Its chart's points: hours for the hour and the day, days for the week and the month.
    public var bucketSeconds: Int64 { self == .hour || self == .day ? 3_600 : 86_400 }

    /// How many points its chart has: the last 24 hours for the hour too (one point is no trend).
    public var bucketCount: Int { self == .hour || self == .day ? 24 : Int(seconds / 86_400) }

    /// The sentence for a value that names no range.
    public static func refusal(_ value: String) -> String {
        // Invisible and direction-changing characters shown as �: a U+202E typed into the
        // address would otherwise turn the rest of the sentence around on screen.
        let shown = String(
            String.UnicodeScalarView(
                value.unicodeScalars.map { scalar in
                    [.format, .control].contains(scalar.properties.generalCategory) ? "\u{FFFD}" : scalar
                }))
        return shown.isEmpty
            ? "Choose a range: 1h, 24h, 7d or 30d." : "There is no range “\(shown)”: choose 1h, 24h, 7d or 30d."
    }
}
