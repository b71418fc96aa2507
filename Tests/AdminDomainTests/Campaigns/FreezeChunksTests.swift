import Testing

@testable import AdminDomain

/// The freeze's chunk size from the chunks already written. The expected sizes are worked by
/// hand from the rule in docs/campaigns.md: the chunk that would have taken the target at the
/// last chunk's rate, moved by at most half again or halved, between 100 and 2,000 users.
@Suite(.timeLimit(.minutes(20))) struct FreezeChunksTests {
    /// (users in the chunk written, milliseconds it held the lock) → the next chunk's users,
    /// from a timed size of 1,000 aiming at 25 ms.
    static let steps: [(Int, Int, Int)] = [
        (1_000, 25, 1_000),  // on target
        (1_000, 50, 500),  // twice too long: half
        (1_000, 40, 625),  // 1,000 × 25 / 40
        (1_000, 200, 500),  // far too long: halved, no more
        (1_000, 20, 1_250),  // 1,000 × 25 / 20
        (1_000, 10, 1_500),  // far too short: half again, no more
        (1_000, 0, 1_500),  // an empty stretch of ids: half again
        (600, 25, 600),  // the rate is per user: 600 in 25 ms fits 600
    ]

    @Test(arguments: steps) func aChunkIsSizedFromTheLastOnesRate(users: Int, milliseconds: Int, next: Int) {
        var chunks = FreezeChunks.timed
        #expect(chunks.users == 1_000)
        chunks.written(users: users, held: .milliseconds(milliseconds))
        #expect(chunks.users == next)
    }

    @Test func theSizeStaysBetweenItsBounds() {
        var growing = FreezeChunks.timed
        for _ in 0..<20 { growing.written(users: growing.users, held: .milliseconds(1)) }
        #expect(growing.users == 2_000)
        var shrinking = FreezeChunks.timed
        for _ in 0..<20 { shrinking.written(users: shrinking.users, held: .seconds(1)) }
        #expect(shrinking.users == 100)
    }

    @Test func aFixedSizeNeverMoves() {
        var fixed = FreezeChunks.fixed(257)
        fixed.written(users: 257, held: .seconds(3))
        fixed.written(users: 257, held: .zero)
        #expect(fixed.users == 257)
        #expect(FreezeChunks.fixed(0).users == 1)
    }
}
