import Synchronization
import Testing

@testable import AdminDomain

/// However many jobs ask at once, `data_version` is read once an interval: callers that find
/// a read under way get the version already known instead of reading again (two jobs whose
/// timers started together used to read it twice a second).
@Suite(.timeLimit(.minutes(1))) struct DatabaseWatchTests {
    @Test func askersAtOnceShareOneReadAnInterval() async throws {
        let reads = Mutex(0)
        let watch = DatabaseWatch(interval: .seconds(3_600)) {
            reads.withLock { $0 += 1 }
            // Long enough that every asker below arrives while the read is under way.
            try await Task.sleep(for: .milliseconds(200))
            return 7
        }
        let versions = await withTaskGroup(of: Int?.self) { group in
            for _ in 0..<10 { group.addTask { await watch.version() } }
            return await group.reduce(into: [Int?]()) { $0.append($1) }
        }
        #expect(reads.withLock { $0 } == 1)
        // The first asker has the version read; the others, arriving before any was known, nil
        // ("read as if it moved"), never a made-up number.
        #expect(versions.filter { $0 == 7 }.count == 1)
        #expect(versions.filter { $0 == nil }.count == 9)
        #expect(await watch.version() == 7, "known now, and not read again within the interval")
        #expect(reads.withLock { $0 } == 1)
    }

    @Test func aReadOlderThanTheIntervalIsMadeAgain() async throws {
        let reads = Mutex(0)
        let watch = DatabaseWatch(interval: .milliseconds(50)) {
            reads.withLock { count in
                count += 1
                return count
            }
        }
        #expect(await watch.version() == 1)
        try await Task.sleep(for: .milliseconds(100))
        #expect(await watch.version() == 2)
    }
}
