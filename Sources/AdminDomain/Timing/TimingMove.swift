/// Why a recipient's push does not go at the start of their usual hour.
public enum TimingMove: String, Sendable, CaseIterable, Codable {
    /// The hour is inside their quiet hours: moved to the nearer allowed edge.
    case quiet
    /// The hour (or its quiet-hours edge) is after the deadline: sent at the fixed time.
    case deadline

    public var label: String {
        switch self {
        case .quiet: "moved by quiet hours"
        case .deadline: "at the fixed time: the usual hour is after the deadline"
        }
    }
}
