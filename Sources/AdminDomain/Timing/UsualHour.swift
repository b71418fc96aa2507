/// A user's usual hour from their activity days: the local hour with the most days, a tie
/// going to the hour whose two neighbours (around midnight) have more, then to the earlier.
public enum UsualHour {
    /// Active days needed for a user's own hour to be used.
    public static let ownDays = 5

    /// nil when no hour has any day.
    public static func pick(counts: [Int]) -> Int? {
        guard counts.count == 24, let most = counts.max(), most > 0 else { return nil }
        func neighbours(_ hour: Int) -> Int { counts[(hour + 23) % 24] + counts[(hour + 1) % 24] }
        return (0..<24).filter { counts[$0] == most }.max { left, right in
            neighbours(left) != neighbours(right) ? neighbours(left) < neighbours(right) : left > right
        }
    }
}
