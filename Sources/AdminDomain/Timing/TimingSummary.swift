import GRDB

/// Why each recipient got their send hour, as counted when they were planned
/// (`panel_timing_counts`, kept by the freeze and by the journey's entries): users per local
/// send hour, per basis of the usual hour, and per move, for the usual-hour group and the
/// control apart. A handful of rows per campaign, whatever its size.
public struct TimingSummary: Sendable, Equatable {
    /// Users sent at their usual hour, by the local hour their push was due (0-23).
    public var usualPerHour = [Int](repeating: 0, count: 24)
    /// The control share, by the local hour of the fixed time.
    public var controlPerHour = [Int](repeating: 0, count: 24)
    /// The usual-hour group by where its hour came from.
    public var byBasis: [UsualHourBasis: Int] = [:]
    public var moved: [TimingMove: Int] = [:]
    public var usual = 0
    public var control = 0

    public init() {}

    /// nil when nothing was planned at a usual hour for it (yet).
    public static func load(campaign: Int64, in db: Database) throws -> TimingSummary? {
        let rows = try Row.fetchAll(
            db, sql: "SELECT timing, basis, hour, moved, users FROM panel_timing_counts WHERE campaign_id = ?",
            arguments: [campaign])
        guard !rows.isEmpty else { return nil }
        var summary = TimingSummary()
        for row in rows {
            let users: Int = row["users"]
            let hour: Int = row["hour"]
            guard (0..<24).contains(hour) else { continue }
            if row["timing"] == "control" {
                summary.control += users
                summary.controlPerHour[hour] += users
                continue
            }
            summary.usual += users
            summary.usualPerHour[hour] += users
            if let basis = UsualHourBasis(rawValue: row["basis"] ?? "") { summary.byBasis[basis, default: 0] += users }
            if let moved = TimingMove(rawValue: row["moved"] ?? "") { summary.moved[moved, default: 0] += users }
        }
        return summary
    }
}
