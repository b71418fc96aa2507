/// When each recipient's push goes: as the campaign's schedule says (the same time, or a
/// local time, for all), or at each user's usual hour with a control share at the fixed
/// time. Stored in `panel_campaigns.timing` (NULL or 'usual_hour') and `timing_control_percent`.
public enum CampaignTiming: Sendable, Equatable {
    case asScheduled
    /// `controlPercent` of the recipients (0-50) go at the fixed time, to measure the difference.
    case usualHour(controlPercent: Int)

    public static let defaultControlPercent = 10
    public static let controlRange = 0...50

    /// As the form and the CLI name it.
    public var name: String {
        switch self {
        case .asScheduled: "scheduled"
        case .usualHour: "usual_hour"
        }
    }

    public var stored: String? {
        if case .usualHour = self { "usual_hour" } else { nil }
    }

    public var controlPercent: Int? {
        if case .usualHour(let percent) = self { percent } else { nil }
    }

    /// The stored columns back; an unknown stored value reads as nil (a newer panel wrote it).
    public init?(stored: String?, controlPercent: Int?) {
        switch stored {
        case nil: self = .asScheduled
        case "usual_hour": self = .usualHour(controlPercent: controlPercent ?? Self.defaultControlPercent)
        default: return nil
        }
    }

    /// What is wrong with this timing for a campaign, as a sentence; nil when nothing is.
    /// - Parameters:
    ///   - localTime: the schedule names a local time of day for everyone.
    ///   - winnerTest: the variants go to a test share first and the rest wait for the winner.
    public func refusal(localTime: Bool, winnerTest: Bool) -> String? {
        guard case .usualHour(let percent) = self else { return nil }
        if !Self.controlRange.contains(percent) {
            return "The timing control share must be a whole percentage from 0 to 50."
        }
        if localTime { return "Choose either one local time of day for everyone or each user's usual hour, not both." }
        if winnerTest {
            return
                "Each user's usual hour cannot be combined with a winner test: "
                + "the rest would wait for the winner, not for their hour."
        }
        return nil
    }
}
