import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization
import Testing

@testable import AdminWeb

/// The tryout of issue 46: four downloads read a byte a second (or paused) and held every
/// export slot of the panel for as long as they stayed open. An export whose client takes
/// nothing for `stallAfter` stops counting; one that keeps taking parts keeps its slot
/// however long it takes. The clock is the test's.
@Suite(.timeLimit(.minutes(10))) struct ExportStalls {
    final class ManualClock: Sendable {
        private let instant = Mutex(ContinuousClock.now)
        var now: ContinuousClock.Instant { instant.withLock { $0 } }
        func advance(_ by: Duration) { instant.withLock { $0 += by } }
    }

    /// A client that takes each part `step` after the last (on the test's clock).
    struct SlowClient: ResponseBodyWriter {
        let clock: ManualClock
        let step: Duration

        mutating func write(_ buffer: ByteBuffer) async throws { clock.advance(step) }

        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }

    @Test func aStalledExportGivesItsSlotBackAndAnotherIsWritten() throws {
        let clock = ManualClock()
        let limits = ExportLimits(perStaff: 1, total: 1, stallAfter: .seconds(30), now: { clock.now })
        let stalled = try limits.take(for: 1)
        #expect(throws: PanelError.self) { try limits.take(for: 2) }
        clock.advance(.seconds(29))
        stalled.progressed()
        clock.advance(.seconds(29))
        #expect(limits.inFlight == 1, "a part taken 29 s ago keeps the slot")
        let refused = #expect(throws: PanelError.self) { try limits.take(for: 2) }
        #expect(refused?.status == .tooManyRequests && refused?.retryAfterSeconds == 10)
        clock.advance(.seconds(1))
        #expect(limits.inFlight == 0, "nothing taken for 30 s: it no longer counts")
        let next = try limits.take(for: 2)
        #expect(limits.inFlight == 1)
        // The stalled one ending later does not free the slot the next one holds.
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

    @Test func anExportWhoseClientKeepsTakingPartsKeepsItsSlotAndGivesItBackAtTheEnd() async throws {
        let clock = ManualClock()
        let limits = ExportLimits(perStaff: 1, total: 1, stallAfter: .seconds(30), now: { clock.now })
        let slot = try limits.take(for: 1)
        let seen = Mutex<[Int]>([])
        let body = ResponseBody { writer in
            for part in 0..<4 {
                try await writer.write(ByteBuffer(string: "row \(part)\n"))
                seen.withLock { $0.append(limits.inFlight) }
            }
            try await writer.finish(nil)
        }
        // 20 s between parts, 80 s in all: longer than the stall limit, never 30 s without one.
        try await slot.wrap(body).write(SlowClient(clock: clock, step: .seconds(20)))
        #expect(seen.withLock { $0 } == [1, 1, 1, 1], "counted throughout")
        #expect(limits.inFlight == 0, "given back at its end")
    }
}
