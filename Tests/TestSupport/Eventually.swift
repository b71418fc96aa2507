/// Waits for a condition that another task makes true, looking every `every` until `within` has
/// passed: true if it held in time. A test awaits with a deadline, never a loop that can spin
/// for ever.
public func eventually(
    within limit: Duration, every interval: Duration = .milliseconds(10),
    _ condition: () async throws -> Bool
) async throws -> Bool {
    let deadline = ContinuousClock.now + limit
    while true {
        if try await condition() { return true }
        guard ContinuousClock.now < deadline else { return false }
        try await Task.sleep(for: interval)
    }
}
