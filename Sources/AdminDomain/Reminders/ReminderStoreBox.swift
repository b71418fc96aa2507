/// The monitor's month of records, worked on off the cooperative threads: making every figure
/// again from 735,000 records takes about 90 ms of one core, which on Swift's two threads
/// held up every request for as long. A class, so that the job mutates the one copy in place
/// (a struct captured by the job would be copied whole at its first change). Unchecked:
/// only the refresh under way touches it, and refreshes run one at a time.
final class ReminderStoreBox: @unchecked Sendable {
    var store = ReminderStore()
}
