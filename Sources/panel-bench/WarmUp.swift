import ArgumentParser

/// `--warm-up`: the server's first background jobs share the two cores with the requests, so the
/// figures that should not include them wait them out.
struct WarmUp: ParsableArguments {
    @Option(
        help:
            "Seconds to wait after the server starts, so its first background jobs (the dashboard's numbers) are done.")
    var warmUp = 0

    func wait() async throws {
        if warmUp > 0 { try await Task.sleep(for: .seconds(warmUp)) }
    }
}
