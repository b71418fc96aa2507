import PanelLoad

extension PanelProcess {
    /// `pages` at `connections` for `seconds`: support's pages at 4, as every server-side figure is taken.
    func load(
        _ pages: [LoadPage], cookie: String, seconds: Int, connections: Int = 4, timeout: Duration = .seconds(10)
    ) async throws -> LoadReport {
        try await LoadDriver.run(
            baseURL: baseURL, cookie: cookie, pages: pages, connections: connections, duration: .seconds(seconds),
            timeout: timeout)
    }

    /// SIGTERM, and the exit code printed: a clean stop is part of every server-side run.
    func stopAndSay() async throws {
        let exit = try await terminate(within: .seconds(15))
        say("SIGTERM: \(exit.map { "exit code \($0)" } ?? "still running after 15 s, killed")")
    }
}
