/// Why an entry ended without its push, stored in `panel_journey_entries.detail` for the
/// report to count by. The audience's own reasons (`Exclusion`) are stored by their raw value.
public enum JourneyExit: String, CaseIterable, Sendable {
    /// The trigger no longer holds: active again, renewed, added the items.
    case noLongerMatches = "no_longer_matches"
    /// Outside the journey's conditions (plan, platform, activity, sign-up) at the push.
    case outsideConditions = "outside_conditions"
    case goalReached = "goal_reached"
    case journeyPaused = "journey_paused"
    case journeyEnded = "journey_ended"

    public var label: String {
        switch self {
        case .noLongerMatches: "no longer matches the trigger"
        case .outsideConditions: "no longer in the journey's conditions"
        case .goalReached: "reached the goal before the push"
        case .journeyPaused: "the journey was paused"
        case .journeyEnded: "the journey was ended"
        }
    }

    /// The label of a stored reason: ours, the audience's, or the text as stored.
    public static func label(of stored: String) -> String {
        JourneyExit(rawValue: stored)?.label ?? Exclusion(rawValue: stored)?.label ?? stored
    }
}
