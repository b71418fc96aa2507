import Foundation
import PanelLoad
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(5))) struct GracefulShutdown {
    /// A sign-in with a wrong password costs a full scrypt hash (over a second in a debug
    /// build): SIGTERM arrives while it runs, and it still gets its answer.
    @Test func aRequestInFlightAtSIGTERMCompletesAndTheServerExitsZero() async throws {
        let temp = try TemporaryDatabase.seeded(users: 20)
        defer { temp.remove() }
        let server = try await PanelProcess.start(
            binary: executable, databasePath: temp.path, publicDirectory: TestPaths.publicDirectory,
            logFile: temp.directory.appendingPathComponent("server.log"))
        let page = try await OneRequest(server.baseURL + "/login").send()
        let formCookie = try #require(page.setCookies.first { $0.hasPrefix("panel_csrf=") }.map { String($0.prefix { $0 != ";" }) })
        let token = String(formCookie.drop { $0 != "=" }.dropFirst())
        let signIn = OneRequest(server.baseURL + "/login", method: "POST", cookie: formCookie,
                                form: [("email", "nobody@example.com"), ("password", "not the password at all"), ("_csrf", token)])
        let clock = ContinuousClock()
        let inFlight = Task { (try await signIn.send(), clock.now) }
        try await Task.sleep(for: .milliseconds(300))
        let signalledAt = clock.now
        server.sendTerminate()

        let (answer, answeredAt) = try await inFlight.value
        #expect(answer.status == 401, "the wrong password's own answer, not an error")
        #expect(answeredAt > signalledAt, "it was still in flight when SIGTERM came")
        #expect(try await server.exitCode(within: .seconds(15)) == 0)
        let log = server.output
        #expect(log.contains("stopping: no new connections"))
        #expect(log.contains("background job stopped"))
        #expect(log.contains("stopped"))
    }
}
