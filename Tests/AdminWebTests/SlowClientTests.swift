import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

@testable import AdminWeb

#if canImport(Glibc)
    import Glibc
#endif

/// Clients that connect and send nothing, or send a request's head a byte at a time, must not
/// hold the server: ordinary requests are answered meanwhile, and every such connection is
/// closed once its limit (here 2 s) has run out.
@Suite(.serialized, .timeLimit(.minutes(20))) struct SlowClientTests {
    /// Runs blocking socket work on a thread of its own, off the cooperative pool.
    static func onThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: work()) }
        }
    }

    /// `source`: the client's own address, another loopback one to be another client.
    static func connectLoopback(_ port: Int, from source: String? = nil) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                close(fd)
                return -1
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return result == 0 ? fd : -1
    }

    /// Closed by the other side: readable with nothing to read, or reset.
    static func isClosed(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        let read = recv(fd, &byte, 1, Int32(MSG_DONTWAIT))
        return read == 0 || (read < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// Sends `request` and reads the answer until the server closes (or 5 s pass); "" when
    /// the connection was closed without one.
    static func exchange(_ port: Int, from source: String? = nil, _ request: String) -> String {
        let fd = connectLoopback(port, from: source)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            let written = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { break }
            sent += written
        }
        var buffer = [UInt8](repeating: 0, count: 4_096)
        var answer: [UInt8] = []
        while true {
            let read = recv(fd, &buffer, buffer.count, 0)
            if read <= 0 { break }
            answer += buffer[0..<read]
        }
        return String(decoding: answer, as: UTF8.self)
    }

    @Test func idleAndSlowConnectionsAreClosedWithinTheirLimitsAndOthersAreAnswered() async throws {
        var panel = try await TestPanel(areas: [])
        defer { panel.remove() }
        // These 2,500 come from one address: this test is about the timeouts, not the
        // per-address limit (`oneAddressCannotTakeEveryConnection`).
        panel.configuration.maxConnectionsPerAddress = 4_000
        panel.configuration.headTimeout = .seconds(2)
        panel.configuration.bodyTimeout = .seconds(2)
        panel.rebuildAreas()
        let app = panel.application()
        try await app.test(.live) { client in
            let port = try #require(client.port)
            // The test client connects first: behind 2,500 sockets its connect could wait in
            // the listen backlog past its own 5 s limit on a loaded machine (seen in CI).
            #expect(try await client.execute(uri: "/health", method: .get).status == .ok)
            let idle = await Self.onThread { (0..<2_000).map { _ in Self.connectLoopback(port) } }
            let slow = await Self.onThread {
                (0..<500).map { _ -> Int32 in
                    let fd = Self.connectLoopback(port)
                    _ = "GET /health HTTP/1.1\r\nHost: x\r\n".withCString {
                        send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL))
                    }
                    return fd
                }
            }
            #expect(idle.allSatisfy { $0 >= 0 } && slow.allSatisfy { $0 >= 0 }, "every connection was made")
            let opened = ContinuousClock.now
            // A byte every half second from each slow client, for 4 s, while others ask.
            let trickle = Task.detached {
                for _ in 0..<8 {
                    for fd in slow { _ = "X".withCString { send(fd, $0, 1, Int32(MSG_NOSIGNAL)) } }
                    try? await Task.sleep(for: .milliseconds(500))
                }
            }
            // Each on a connection of its own, as a browser that comes back later opens one.
            var slowest: Duration = .zero
            for _ in 0..<20 {
                let (took, status) = await Self.onThread { () -> (Duration, String) in
                    let started = ContinuousClock.now
                    let fd = Self.connectLoopback(port)
                    defer { close(fd) }
                    _ = "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".withCString {
                        send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL))
                    }
                    var buffer = [UInt8](repeating: 0, count: 4_096)
                    var answer: [UInt8] = []
                    while true {
                        let read = recv(fd, &buffer, buffer.count, 0)
                        if read <= 0 { break }
                        answer += buffer[0..<read]
                    }
                    return (ContinuousClock.now - started, String(decoding: answer.prefix(12), as: UTF8.self))
                }
                #expect(status.hasPrefix("HTTP/1.1 200") || status.hasPrefix("HTTP/1.1 503"), "\(status)")
                slowest = max(slowest, took)
                try await Task.sleep(for: .milliseconds(100))
            }
            await trickle.value
            print("ordinary requests among 2,500 idle and slow connections: slowest \(slowest)")
            // Answered meanwhile, never starved: alone this is about 45 ms, but the full suite
            // runs other tests beside it on two cores (seen: 1.2 s), so the bound is loose
            // and the figure is printed.
            #expect(slowest < .seconds(5), "answered meanwhile")
            // Every idle and slow connection closed once 2 s (and the slack of a busy machine) ran out.
            let remaining = max(Duration.zero, .seconds(5) - (ContinuousClock.now - opened))
            try await Task.sleep(for: remaining)
            let stillOpen = await Self.onThread { (idle + slow).filter { !Self.isClosed($0) }.count }
            #expect(stillOpen == 0, "\(stillOpen) of 2,500 connections still open")
            _ = await Self.onThread { for fd in idle + slow { close(fd) } }
        }
    }

    /// Issue 32, finding 10: one client's 4,010 idle sockets refused everyone, for only the
    /// total was capped. With a limit of 4 per address, the fifth from 127.0.0.1 (the test
    /// client's own connection is the first) is closed at once, a client at 127.0.0.2 is still
    /// answered, the address is logged once, and once 127.0.0.1's sockets close it is
    /// answered again.
    @Test func oneAddressCannotTakeEveryConnection() async throws {
        var panel = try await TestPanel(areas: [])
        defer { panel.remove() }
        panel.configuration.maxConnectionsPerAddress = 4
        let lines = CapturedLog()
        let logger = Logger(label: "test") { _ in lines }
        let app = panel.application(logger: logger)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            // The test client's own connection, from 127.0.0.1 too, is one of the four.
            #expect(try await client.execute(uri: "/health", method: .get).status == .ok)
            let sockets = await Self.onThread { (0..<4).map { _ in Self.connectLoopback(port) } }
            #expect(sockets.allSatisfy { $0 >= 0 }, "every connection was made")
            var closed = 0
            let deadline = ContinuousClock.now + .seconds(15)
            while closed < 1, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(200))
                closed = await Self.onThread { sockets.filter(Self.isClosed).count }
            }
            try await Task.sleep(for: .milliseconds(500))
            closed = await Self.onThread { sockets.filter(Self.isClosed).count }
            #expect(closed == 1, "\(closed) of 4 closed: 4 from one address (with the test client's) stay open")
            let fromSame = await Self.onThread {
                Self.exchange(port, "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            }
            #expect(fromSame.isEmpty, "a sixth from 127.0.0.1 is closed unanswered: \(fromSame.prefix(40))")
            let fromOther = await Self.onThread {
                Self.exchange(port, from: "127.0.0.2", "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            }
            #expect(fromOther.hasPrefix("HTTP/1.1 200"), "127.0.0.2 is answered: \(fromOther.prefix(40))")
            _ = await Self.onThread { for fd in sockets { close(fd) } }
            var again = ""
            let reopened = ContinuousClock.now + .seconds(15)
            while !again.hasPrefix("HTTP/1.1 200"), ContinuousClock.now < reopened {
                try await Task.sleep(for: .milliseconds(200))
                again = await Self.onThread {
                    Self.exchange(port, "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                }
            }
            #expect(again.hasPrefix("HTTP/1.1 200"), "127.0.0.1 is answered again once its sockets closed")
        }
        let warnings = lines.messages.filter { $0.contains("connection limit per address reached") }
        #expect(warnings.count == 1, "one line for the address, not one a socket: \(warnings)")
        #expect(warnings.first?.contains("127.0.0.1") == true)
    }

    /// Issue 32, finding 10: the 400 Hummingbird writes for a request line too long to parse
    /// (over 80 KiB) had no CSP and no `nosniff`. Every response the panel writes has the
    /// router's security headers.
    @Test func theAnswerToAnOversizedRequestLineCarriesTheSecurityHeaders() async throws {
        let panel = try await TestPanel(areas: [])
        defer { panel.remove() }
        let app = panel.application()
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let line = "GET /" + String(repeating: "a", count: 81 * 1_024) + " HTTP/1.1\r\nHost: x\r\n\r\n"
            let answer = await Self.onThread { Self.exchange(port, line) }
            let head = answer.components(separatedBy: "\r\n\r\n")[0].lowercased()
            #expect(head.hasPrefix("http/1.1 400"), "\(head)")
            for header in [
                "content-security-policy: default-src 'self'; object-src 'none'; base-uri 'none'; "
                    + "frame-ancestors 'none'; form-action 'self'",
                "x-content-type-options: nosniff", "referrer-policy: same-origin", "cache-control: no-store",
            ] {
                #expect(
                    head.contains("\r\n" + header + "\r\n") || head.hasSuffix("\r\n" + header), "\(header) in \(head)")
            }
            // A page answered by the router has them once, not twice.
            let page = try await client.execute(uri: "/login", method: .get)
            #expect(page.headers[values: .contentSecurityPolicy].count == 1)
        }
    }

    @Test func connectionsOverTheCapAreClosedAtOnce() async throws {
        var panel = try await TestPanel(areas: [])
        defer { panel.remove() }
        panel.configuration.maxConnections = 16
        panel.rebuildAreas()
        let app = panel.application()
        try await app.test(.live) { client in
            let port = try #require(client.port)
            // The test client's own connection is one of the sixteen.
            _ = try await client.execute(uri: "/health", method: .get)
            let sockets = await Self.onThread { (0..<30).map { _ in Self.connectLoopback(port) } }
            // Closed as soon as the server accepts them, which on a busy machine takes a while.
            var closed = 0
            let deadline = ContinuousClock.now + .seconds(15)
            while closed < 14, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(200))
                closed = await Self.onThread { sockets.filter(Self.isClosed).count }
            }
            #expect(closed >= 14, "\(closed) of 30 closed: at most 16 open at once")
            _ = await Self.onThread { for fd in sockets { close(fd) } }
        }
    }
}

/// Log lines kept for a test to read.
final class CapturedLog: LogHandler, @unchecked Sendable {
    private let lines = Mutex<[String]>([])
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    var messages: [String] { lines.withLock { $0 } }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        lines.withLock { $0.append("\(event.message) \(merged)") }
    }
}
