import AdminDomain
import DemoData
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

@testable import AdminWeb

@Suite(.timeLimit(.minutes(20))) struct ShutdownWatchdogs {
    @Test func aStuckShutdownEndsAtTheDeadlineNamingTheRequestsStillOpen() async throws {
        let open = OpenRequests()
        let stuck = open.begin(requestID: "r-stuck", method: "GET", path: "/users/50")
        let finished = open.begin(requestID: "r-done", method: "GET", path: "/")
        open.end(finished)
        let started = ContinuousClock.now
        let fired = await withCheckedContinuation { (continuation: CheckedContinuation<[OpenRequests.Entry], Never>) in
            let watchdog = ShutdownWatchdog(
                deadline: .milliseconds(300), openRequests: open, logger: Logger(label: "test"),
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

    @Test func aRequestIsInTheRegisterWhileItsHandlerRunsAndLeavesItAfter() async throws {
        let open = OpenRequests()
        let seenInside = Mutex<[OpenRequests.Entry]>([])
        let router = Router()
        router.add(middleware: OpenRequestsMiddleware(openRequests: open))
        router.get("/users/:id") { _, _ in
            seenInside.withLock { $0 = open.current }
            return "ok"
        }
        router.get("/fails") { _, _ -> String in throw HTTPError(.internalServerError) }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/users/50?q=someone@example.com", method: .get) { #expect($0.status == .ok) }
            #expect(
                seenInside.withLock { $0 }.map(\.path) == ["/users/50"], "registered while running, without its query")
            #expect(open.current.isEmpty)
            try await client.execute(uri: "/fails", method: .get) { #expect($0.status == .internalServerError) }
            #expect(open.current.isEmpty, "a handler that throws leaves the register too")
        }
    }

    @Test func thePanelRegistersItsRequestsAndEmptiesTheRegister() async throws {
        let panel = try await TestPanel(areas: [.support])
        defer { panel.remove() }
        try await panel.test { client in
            let cookie = try await panel.signIn(client)
            #expect(try await client.get("/users/\(DemoSeeder.whaleUserID)", cookie: cookie).status == .ok)
            #expect(try await client.get("/no-such-page", cookie: cookie).status == .notFound)
        }
        #expect(panel.areas.site.openRequests.registered >= 4, "the sign-in's two requests and the two pages")
        #expect(panel.areas.site.openRequests.current.isEmpty)
    }
}
