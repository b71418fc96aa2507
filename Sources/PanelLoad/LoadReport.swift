import Foundation

/// What one load run measured, per page and in all.
public struct LoadReport: Sendable {
    public struct Page: Sendable {
        public let name: String
        public let answered: Int
        /// Of those, refused with `Retry-After` (an export too many, figures being counted).
        public let refused: Int
        /// Anything but a 200 in time: "status 500", "timeout", "connection error: …", with counts.
        public let failures: [String: Int]
        public let p50: Duration
        public let p99: Duration
        public let slowest: Duration
    }

    public let pages: [Page]
    public let elapsed: Duration
    public let connections: Int

    public var requests: Int { pages.reduce(0) { $0 + $1.answered + $1.failures.values.reduce(0, +) } }
    public var failures: Int { pages.reduce(0) { $0 + $1.failures.values.reduce(0, +) } }
    public var slowest: Duration { pages.map(\.slowest).max() ?? .zero }
    public var requestsPerSecond: Double { Double(requests) / elapsed.seconds }

    init(samples: [String: [Sample]], order: [String], elapsed: Duration, connections: Int) {
        pages = order.map { name in
            let all = samples[name] ?? []
            let times = all.filter { $0.failure == nil }.map(\.time).sorted()
            var failures: [String: Int] = [:]
            for sample in all { if let failure = sample.failure { failures[failure, default: 0] += 1 } }
            return Page(
                name: name, answered: times.count, refused: all.filter(\.refused).count, failures: failures,
                p50: Self.percentile(times, 0.50), p99: Self.percentile(times, 0.99),
                slowest: all.map(\.time).max() ?? .zero)
        }
        self.elapsed = elapsed
        self.connections = connections
    }

    static func percentile(_ sorted: [Duration], _ p: Double) -> Duration {
        guard !sorted.isEmpty else { return .zero }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
    }

    /// A table for a terminal or a closing note.
    public var table: String {
        func ms(_ d: Duration) -> String { String(format: "%.1f", d.seconds * 1000) }
        var lines = ["page                   req/s   p50 ms   p99 ms   max ms  failures"]
        for page in pages {
            let count = page.answered + page.failures.values.reduce(0, +)
            let failures =
                (page.failures.isEmpty
                    ? "0" : page.failures.map { "\($0.value) \($0.key)" }.sorted().joined(separator: ", "))
                + (page.refused > 0 ? "; \(page.refused) refused with Retry-After" : "")
            lines.append(
                page.name.padding(toLength: 20, withPad: " ", startingAt: 0)
                    + String(format: "%8.1f", Double(count) / elapsed.seconds)
                    + ms(page.p50).leftPadded(9) + ms(page.p99).leftPadded(9) + ms(page.slowest).leftPadded(9) + "  "
                    + failures)
        }
        lines.append(
            String(
                format: "all: %d requests in %.1f s over %d connections = %.1f req/s, %d failed, slowest %@ ms",
                requests, elapsed.seconds, connections, requestsPerSecond, failures, ms(slowest)))
        return lines.joined(separator: "\n")
    }
}

struct Sample: Sendable {
    let time: Duration
    let failure: String?
    /// Answered 429 or 503 with `Retry-After`: in time, but not served.
    var refused = false
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
