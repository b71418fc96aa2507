@testable import AdminWeb
import AdminDomain
import DemoData
import Foundation
import Logging
import Testing

@Suite(.timeLimit(.minutes(5))) struct ShutdownWatchdogs {
    @Test func aStuckShutdownEndsAtTheDeadlineNamingTheRequestsStillOpen() async throws {
        let open = OpenRequests()
        let stuck = open.begin(requestID: "r-stuck", method: "GET", path: "/users/50")
        let finished = open.begin(requestID: "r-done", method: "GET", path: "/")
        open.end(finished)
        let started = ContinuousClock.now
        let fired = await withCheckedContinuation { (continuation: CheckedContinuation<[OpenRequests.Entry], Never>) in
            let watchdog = ShutdownWatchdog(deadline: .milliseconds(300), openRequests: open, logger: Logger(label: "test"),
                                            onDeadline: { continuation.resume(returning: $0) })
            watchdog.startCountdown(signal: SIGTERM)
            // A second signal does not start a second countdown (the continuation would trap).
            watchdog.startCountdown(signal: SIGINT)
        }
        #expect(ContinuousClock.now - started >= .milliseconds(300))
        #expect(fired.map(\.requestID) == ["r-stuck"])
        #expect(fired.first?.path == "/users/50")
        open.end(stuck)
        #expect(open.current.isEmpty)
    }

    @Test func requestsLeaveTheRegisterWhenTheirHandlersReturn() async throws {
        let panel = try await TestPanel()
        defer { panel.remove() }
        try await panel.test { client in
            let cookie = try await panel.signIn(client)
            #expect(try await client.get("/users/\(DemoSeeder.whaleUserID)", cookie: cookie).status == .ok)
            #expect(try await client.get("/no-such-page", cookie: cookie).status == .notFound)
        }
        #expect(panel.services.openRequests.current.isEmpty)
    }
}
