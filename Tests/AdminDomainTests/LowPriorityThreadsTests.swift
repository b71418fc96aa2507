import AdminDomain
import Foundation
import Testing

/// The dashboard's count reads on threads the kernel runs last (nice 19, the lowest nice
/// value), so that requests get the cores first.
@Suite(.timeLimit(.minutes(1))) struct LowPriorityThreadsRunLow {
    @Test func workRunsAtNiceNineteen() async throws {
        #if os(Linux)
        let inside = try await LowPriorityThreads.shared.run { LowPriorityThreads.currentNiceness() }
        #expect(inside == 19)
        #endif
    }

    @Test func aThrownErrorReachesTheCaller() async throws {
        struct Refused: Error {}
        await #expect(throws: Refused.self) { try await LowPriorityThreads.shared.run { throw Refused() } }
    }
}
