import Foundation
import PanelLoad
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(20))) struct GracefulShutdown {
    /// User and system CPU seconds of a process, from /proc (Linux); 0 where unreadable.
    static func cpuSeconds(_ pid: Int32) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return 0 }
        // Fields after the command's ")": state is the 3rd field, utime the 14th, stime the 15th.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// A sign-in with a wrong password costs a full scrypt hash (over a second in a debug
    /// build): SIGTERM arrives while it runs, and it still gets its answer.
    @Test func aRequestInFlightAtSIGTERMCompletesAndTheServerExitsZero() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 20)
        defer { temp.remove() }
        // A deadline far off: this test is about the order of a graceful stop, and with the
        // cores busy (the load and crash tests beside it) the jobs' last reads take seconds.
        let server = try await PanelProcess.start(
            binary: executable, databasePath: temp.path, publicDirectory: TestPaths.publicDirectory,
            arguments: ["--shutdown-seconds", "60"], logFile: temp.directory.appendingPathComponent("server.log"))
        let page = try await OneRequest(server.baseURL + "/login").send()
        let formCookie = try #require(
            page.setCookies.first { $0.hasPrefix("panel_csrf=") }.map { String($0.prefix { $0 != ";" }) })
        let token = String(formCookie.drop { $0 != "=" }.dropFirst())
        let signIn = OneRequest(
            server.baseURL + "/login", method: "POST", cookie: formCookie,
            form: [("email", "nobody@example.com"), ("password", "not the password at all"), ("_csrf", token)])
        let clock = ContinuousClock()
        let idleCPU = Self.cpuSeconds(server.processIdentifier)
        let inFlight = Task { (try await signIn.send(), clock.now) }
        // SIGTERM once the server is seen hashing (a quarter second of CPU more than idle),
        // not after a fixed pause: on a busy machine the request may not have arrived by then.
        let hashing = try await eventually(within: .seconds(30)) {
            Self.cpuSeconds(server.processIdentifier) - idleCPU >= 0.25
        }
        #expect(hashing, "the server was seen working on the sign-in")
        let signalledAt = clock.now
        server.sendTerminate()

        let (answer, answeredAt) = try await inFlight.value
        #expect(answer.status == 401, "the wrong password's own answer, not an error")
        #expect(answeredAt > signalledAt, "it was still in flight when SIGTERM came")
        #expect(try await server.exitCode(within: .seconds(75)) == 0)
        // In order: the server stops taking connections, the jobs stop after it, and the panel's
        // own last line says it stopped (a line whose message is "stopped" alone).
        let lines = server.output.split(separator: "\n")
        let noNewConnections = lines.firstIndex { $0.contains("stopping: no new connections") }
        let lastJob = lines.lastIndex { $0.contains("background job stopped") }
        let panelStopped = lines.lastIndex { $0.hasSuffix(" stopped") && !$0.hasSuffix("background job stopped") }
        #expect(noNewConnections != nil && lastJob != nil && panelStopped != nil, "\(server.output)")
        if let noNewConnections, let lastJob, let panelStopped {
            #expect(noNewConnections < lastJob && lastJob < panelStopped, "\(server.output)")
        }
    }
}
