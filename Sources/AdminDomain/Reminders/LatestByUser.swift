import Foundation

/// Per user, the latest reminder due and the latest sent on time and opened: by id in arrays
/// for the backend's ids (a month of a big database has hundreds of thousands of users with a
/// reminder; a dictionary of them cost more than everything else in a count), in a dictionary
/// for any others.
struct LatestByUser {
    private var due: [Int64] = []
    private var onTimeOpened: [Int64] = []
    private var sparse: [Int64: (due: Int64, onTimeOpened: Int64)] = [:]
    private static let never = Int64.min

    mutating func note(user: Int64, due time: Int64, onTimeOpened met: Bool) {
        if user >= 0 && user < DevicePlatforms.denseLimit {
            let index = Int(user)
            if index >= due.count {
                let grown = index + 1 + due.count / 2
                due += [Int64](repeating: Self.never, count: grown - due.count)
                onTimeOpened += [Int64](repeating: Self.never, count: grown - onTimeOpened.count)
            }
            due[index] = max(due[index], time)
            if met { onTimeOpened[index] = max(onTimeOpened[index], time) }
        } else {
            let previous = sparse[user] ?? (Self.never, Self.never)
            sparse[user] = (max(previous.due, time), met ? max(previous.onTimeOpened, time) : previous.onTimeOpened)
        }
    }

    /// For each start, the users with a reminder due after it, and those with one sent on
    /// time and opened after it.
    func count(since starts: [Int64]) -> (due: [Int], met: [Int]) {
        var dueCounts = [Int](repeating: 0, count: starts.count)
        var metCounts = dueCounts
        func add(_ latestDue: Int64, _ latestMet: Int64) {
            for (index, start) in starts.enumerated() {
                if latestDue > start { dueCounts[index] += 1 }
                if latestMet > start { metCounts[index] += 1 }
            }
        }
        for index in due.indices where due[index] != Self.never { add(due[index], onTimeOpened[index]) }
        for entry in sparse.values { add(entry.due, entry.onTimeOpened) }
        return (dueCounts, metCounts)
    }
}
