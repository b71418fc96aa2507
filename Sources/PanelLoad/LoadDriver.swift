import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization

/// Drives a running panel over real HTTP: `connections` clients, each sending its next
/// request as soon as the last one is answered, round-robin over the pages, for `duration`.
public enum LoadDriver {
    public static func run(
        baseURL: String, cookie: String, pages: [LoadPage], connections: Int,
        duration: Duration, timeout: Duration
    ) async throws -> LoadReport {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
        configuration.timeout = .init(connect: .seconds(5))
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let clock = ContinuousClock()
        let start = clock.now
        let end = start + duration
        let results = await withTaskGroup(of: [(String, Sample)].self) { group in
            for worker in 0..<connections {
                group.addTask {
                    var samples: [(String, Sample)] = []
                    var next = worker
                    while clock.now < end {
                        let page = pages[next % pages.count]
                        next += 1
                        samples.append(
                            (
                                page.name,
                                await fetch(page, baseURL: baseURL, cookie: cookie, client: client, timeout: timeout)
                            ))
                    }
                    return samples
                }
            }
            var all: [String: [Sample]] = [:]
            for await samples in group {
                for (name, sample) in samples { all[name, default: []].append(sample) }
            }
            return all
        }
        let elapsed = clock.now - start
        try await client.shutdown()
        // A name once, however many pages share it (every draft page is "draft page").
        var seen: Set<String> = []
        return LoadReport(
            samples: results, order: pages.map(\.name).filter { seen.insert($0).inserted }, elapsed: elapsed,
            connections: connections)
    }

    /// One request, answered or given up on at `timeout` whatever happens: the client's
    /// deadline covers the response head, not a body that stops streaming, and a stuck
    /// server must end the run, not hang it.
    static func fetch(_ page: LoadPage, baseURL: String, cookie: String, client: HTTPClient, timeout: Duration) async
        -> Sample
    {
        await withCheckedContinuation { continuation in
            let resumed = Mutex(false)
            let resumeOnce: @Sendable (Sample) -> Void = { sample in
                if resumed.withLock({ done in
                    defer { done = true }
                    return !done
                }) {
                    continuation.resume(returning: sample)
                }
            }
            let request = Task {
                resumeOnce(
                    await fetchWithoutLimit(page, baseURL: baseURL, cookie: cookie, client: client, timeout: timeout))
            }
            Task {
                try? await Task.sleep(for: timeout + .milliseconds(500))
                resumeOnce(Sample(time: timeout + .milliseconds(500), failure: "timeout"))
                request.cancel()
            }
        }
    }

    static func fetchWithoutLimit(
        _ page: LoadPage, baseURL: String, cookie: String, client: HTTPClient, timeout: Duration
    ) async -> Sample {
        var request = HTTPClientRequest(url: baseURL + page.path)
        request.headers.add(name: "Cookie", value: cookie)
        let clock = ContinuousClock()
        let started = clock.now
        do {
            let response = try await client.execute(
                request, deadline: .now() + .nanoseconds(Int64(timeout.seconds * 1e9)))
            // Read the whole body: a streamed export is answered only when its last row is.
            _ = try await response.body.collect(upTo: 256 * 1024 * 1024)
            let time = clock.now - started
            if time > timeout { return Sample(time: time, failure: "over \(Int(timeout.seconds)) s") }
            // A refusal that says when to come back (an export too many, figures being counted)
            // is an answer, counted apart (issue 46).
            if response.status == .tooManyRequests || response.status == .serviceUnavailable,
                response.headers.first(name: "retry-after") != nil
            {
                return Sample(time: time, failure: nil, refused: true)
            }
            return Sample(time: time, failure: response.status == .ok ? nil : "status \(response.status.code)")
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout {
            return Sample(time: clock.now - started, failure: "timeout")
        } catch {
            return Sample(time: clock.now - started, failure: "error: \(error)")
        }
    }

    /// One plain request, for "does it still answer?".
    public static func status(of url: String, cookie: String? = nil, timeout: Duration = .seconds(5)) async throws
        -> Int
    {
        try await OneRequest(url, cookie: cookie).send(timeout: timeout).status
    }
}
