import Foundation
import PanelLoad
import TestSupport
import Testing

/// The real server under the load a busy support team puts on it. 16 profiles at once once
/// locked the panel for good: a synchronous database read blocked both cooperative threads.
@Suite(.serialized, .timeLimit(.minutes(20))) struct ServerUnderLoad {
    enum Pool: String, CaseIterable {
        /// As many cooperative threads as cores, as in production.
        case asManyAsCores
        /// One cooperative thread: any blocking call stalls everything at once.
        case oneThread
    }

    @Test(arguments: Pool.allCases)
    func sixtyFourConnectionsForTenSecondsAreAllAnsweredAndSIGTERMExitsZero(_ pool: Pool) async throws {
        let temp = try await TemporaryDatabase.seeded(users: 2_000)
        defer { temp.remove() }
        let fixture = try await LoadFixture.prepare(databasePath: temp.path)
        let environment =
            pool == .oneThread ? try await OneCooperativeThread.environment(buildingIn: temp.directory) : [:]
        let server = try await PanelProcess.start(
            binary: executable, databasePath: temp.path, publicDirectory: TestPaths.publicDirectory,
            environment: environment, logFile: temp.directory.appendingPathComponent("server.log"))
        let pages = LoadPage.standardMix(fixture: fixture)
        // The load starts once the dashboard's first full count is in, as on a panel that has
        // run a while: a dashboard asked for before it waits for that count (issue 46, finding
        // 0, still open), which beside the other servers of this pass took over 10 s.
        let counted = try await eventually(within: .seconds(300)) {
            server.output.split(separator: "\n").contains {
                $0.contains("dashboard refreshed") && $0.contains("full=true")
            }
        }
        #expect(counted, "the first full count was logged")

        let report = try await LoadDriver.run(
            baseURL: server.baseURL, cookie: fixture.cookie, pages: pages,
            connections: 64, duration: .seconds(10), timeout: .seconds(10))
        print("load, \(pool.rawValue):\n\(report.table)")

        // The driver's timeout is the bound: a request over 10 s is a failure, which a
        // blocked cooperative thread gives (every request waits behind it). Not 5 s: under the
        // whole suite on two cores the dashboard's first look once took 5.2 s with one thread
        // while every other page answered (p99 under 4.6 s). No speed is asserted here
        // (benchmarks print speeds).
        #expect(report.failures == 0, "every request answered 200 within 10 s")
        for page in report.pages {
            #expect(page.answered > 0, "\(page.name) was answered")
        }
        #expect(try await LoadDriver.status(of: server.baseURL + "/login") == 200, "answers afterwards")
        #expect(
            try await LoadDriver.status(of: server.baseURL + "/users/\(fixture.whaleUserID)", cookie: fixture.cookie)
                == 200)
        let exit = try await server.terminate(within: .seconds(30))
        #expect(exit == 0, "SIGTERM ends the server with exit code 0\n\(server.output)")
    }
}
