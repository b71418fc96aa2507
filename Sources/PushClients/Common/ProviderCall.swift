import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// A provider's answer: status, the headers we read, and a body cut at 64 KB.
struct ProviderResponse: Sendable {
    let status: Int
    let headers: HTTPHeaders
    let body: ByteBuffer

    var bodyData: Data { Data(body.readableBytesView) }
}

/// Why no answer came: whether the request had been written decides between "try again"
/// and "may have been delivered, never again".
enum ProviderCallError: Error {
    /// Not fully written (no connection, TLS refused, pool full): safe to send again.
    case notSent(String)
    /// Written, then the connection closed or the deadline passed without an answer.
    case noAnswer(String)
}

/// One request through async-http-client's delegate interface, which tells when the request
/// has been fully written; the async interface does not, and without it a timeout cannot be
/// told apart from a refused connection.
enum ProviderCall {
    static let bodyLimit = 65_536

    static func run(_ client: HTTPClient, url: String, headers: HTTPHeaders, body: ByteBuffer, timeout: Duration)
        async throws(ProviderCallError) -> ProviderResponse
    {
        let request: HTTPClient.Request
        do {
            request = try HTTPClient.Request(url: url, method: .POST, headers: headers, body: .byteBuffer(body))
        } catch {
            throw .notSent("the request could not be made: \(error)")
        }
        let delegate = CollectingDelegate()
        let deadline =
            NIODeadline.now()
            + .nanoseconds(
                Int64(timeout.components.seconds) * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000)
        do {
            return try await client.execute(request: request, delegate: delegate, deadline: deadline).futureResult.get()
        } catch {
            let reason = describe(error)
            throw delegate.requestWritten ? .noAnswer(reason) : .notSent(reason)
        }
    }

    /// A push's request: the answer, or the outcome when none came. Never written whole, it
    /// is safe to send again; written and unanswered, it may have been delivered.
    static func push(
        _ client: HTTPClient, provider: String, url: String, headers: HTTPHeaders, body: ByteBuffer,
        timeout: Duration, attempt: Int
    ) async -> Result<ProviderResponse, PushOutcomeFailure> {
        do {
            return .success(try await run(client, url: url, headers: headers, body: body, timeout: timeout))
        } catch {
            switch error {
            case .notSent(let why):
                return .failure(
                    PushOutcomeFailure(
                        .retryLater(
                            reason: "\(provider) not reached: \(why)", after: RetryDelay.backoff(attempt: attempt))))
            case .noAnswer(let why): return .failure(PushOutcomeFailure(.unknown(reason: "\(provider): \(why)")))
            }
        }
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout: return "no answer before the timeout"
            case .remoteConnectionClosed: return "the provider closed the connection"
            case .connectTimeout: return "the connection timed out"
            default: return "\(error)"
            }
        }
        return String(describing: error)
    }
}

/// Collects the answer; remembers whether the request went out in full.
private final class CollectingDelegate: HTTPClientResponseDelegate {
    typealias Response = ProviderResponse

    private struct State {
        var written = false
        var status = 0
        var headers = HTTPHeaders()
        var body = ByteBuffer()
    }

    private let state = Mutex(State())

    var requestWritten: Bool { state.withLock { $0.written } }

    func didSendRequest(task: HTTPClient.Task<ProviderResponse>) {
        state.withLock { $0.written = true }
    }

    func didReceiveHead(task: HTTPClient.Task<ProviderResponse>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        state.withLock {
            // An answer also proves the request arrived, even one sent before the body ended.
            $0.written = true
            $0.status = Int(head.status.code)
            $0.headers = head.headers
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<ProviderResponse>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        state.withLock {
            var part = buffer
            let room = ProviderCall.bodyLimit - $0.body.readableBytes
            if room > 0, let slice = part.readSlice(length: min(room, part.readableBytes)) {
                $0.body.writeImmutableBuffer(slice)
            }
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<ProviderResponse>) throws -> ProviderResponse {
        state.withLock { ProviderResponse(status: $0.status, headers: $0.headers, body: $0.body) }
    }
}
