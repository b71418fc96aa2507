import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization
import Testing

@testable import AdminWeb

/// The tryout of issue 46: four downloads read a byte a second (or paused) and held every
/// export slot of the panel for as long as they stayed open. An export one of whose writes
/// has waited on its client for `stallAfter` stops counting, for good; one whose client keeps
/// taking parts, or whose file is slow to make, keeps its slot. The clock is the test's.
@Suite(.timeLimit(.minutes(20))) struct ExportStalls {
    final class ManualClock: Sendable {
        private let instant = Mutex(ContinuousClock.now)
        var now: ContinuousClock.Instant { instant.withLock { $0 } }
        func advance(_ by: Duration) { instant.withLock { $0 += by } }
    }

    /// A client that takes each part `step` after it is handed over (on the test's clock),
    /// noting how many exports count while it waits.
    struct SlowClient: ResponseBodyWriter {
        let clock: ManualClock
        let step: Duration
        let limits: ExportLimits
        let seen: Seen

        mutating func write(_ buffer: ByteBuffer) async throws {
            clock.advance(step)
            seen.counts.withLock { $0.append(limits.inFlight) }
        }

        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }

    final class Seen: Sendable {
        let counts = Mutex<[Int]>([])
    }

    static func body(parts: Int) -> ResponseBody {
        ResponseBody { writer in
            for part in 0..<parts { try await writer.write(ByteBuffer(string: "row \(part)\n")) }
            try await writer.finish(nil)
        }
    }

    @Test func aWriteWaitingThirtySecondsOnItsClientGivesTheSlotBack() throws {
        let clock = ManualClock()
        let limits = ExportLimits(perStaff: 1, total: 1, stallAfter: .seconds(30), now: { clock.now })
        let stalled = try limits.take(for: 1)
        // Slow to make (no write waiting): it keeps its slot however long.
        clock.advance(.seconds(600))
        #expect(limits.inFlight == 1)
        #expect(throws: PanelError.self) { try limits.take(for: 2) }
        stalled.writeBegan()
        clock.advance(.seconds(29))
        let refused = #expect(throws: PanelError.self) { try limits.take(for: 2) }
        #expect(refused?.status == .tooManyRequests && refused?.retryAfterSeconds == 10)
        clock.advance(.seconds(1))
        #expect(limits.inFlight == 0, "a write waiting 30 s on its client: it no longer counts")
        let next = try limits.take(for: 2)
        // The stalled client coming back does not count again, nor does its end free the next one's slot.
        stalled.writeEnded()
        stalled.release()
        #expect(limits.inFlight == 1)
        #expect(throws: PanelError.self) { try limits.take(for: 3) }
        next.release()
        #expect(limits.inFlight == 0)
        _ = try limits.take(for: 3)
    }

    @Test func theSameStaffMemberIsToldThatAPausedDownloadStopsCounting() throws {
        let limits = ExportLimits(perStaff: 1, total: 5, stallAfter: .seconds(30))
        let held = try limits.take(for: 7)
        let refused = #expect(throws: PanelError.self) { try limits.take(for: 7) }
        #expect(refused?.sentence.contains("each person may have 1 at once") == true)
        #expect(refused?.sentence.contains("paused for 30 seconds stops counting") == true)
        held.release()
    }

    @Test func aClientTakingAPartEveryTwentySecondsKeepsItsSlotUntilTheEnd() async throws {
        let clock = ManualClock()
        let limits = ExportLimits(perStaff: 1, total: 1, stallAfter: .seconds(30), now: { clock.now })
        let seen = Seen()
        // 20 s a part, 80 s in all: longer than the stall limit, never one write as long.
        try await limits.take(for: 1).wrap(Self.body(parts: 4))
            .write(SlowClient(clock: clock, step: .seconds(20), limits: limits, seen: seen))
        #expect(seen.counts.withLock { $0 } == [1, 1, 1, 1], "counted throughout")
        #expect(limits.inFlight == 0, "given back at its end")
    }

    @Test func aClientThatTakesThirtySecondsForAPartLosesTheSlotThroughTheWriter() async throws {
        let clock = ManualClock()
        let limits = ExportLimits(perStaff: 1, total: 1, stallAfter: .seconds(30), now: { clock.now })
        let seen = Seen()
        try await limits.take(for: 1).wrap(Self.body(parts: 2))
            .write(SlowClient(clock: clock, step: .seconds(30), limits: limits, seen: seen))
        #expect(seen.counts.withLock { $0 } == [0, 0], "let go while its first part waited, and not counted again")
    }
}
