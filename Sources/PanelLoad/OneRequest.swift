import AsyncHTTPClient
import Foundation
import NIOCore

/// A single request with its own client, for checks around a load: does it answer, what
/// cookie does the sign-in page set, does a request in flight finish during shutdown.
public struct OneRequest: Sendable {
    public struct Answer: Sendable {
        public let status: Int
        public let setCookies: [String]
        public let body: String
    }

    public let url: String
    public var method = "GET"
    public var cookie: String?
    public var form: [(String, String)]?

    public init(_ url: String, method: String = "GET", cookie: String? = nil, form: [(String, String)]? = nil) {
        self.url = url
        self.method = method
        self.cookie = cookie
        self.form = form
    }

    public func send(timeout: Duration = .seconds(30)) async throws -> Answer {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        var request = HTTPClientRequest(url: url)
        request.method = .init(rawValue: method)
        if let cookie { request.headers.add(name: "Cookie", value: cookie) }
        if let form {
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._~")
            let body = form.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }
                .joined(separator: "&")
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: body))
        }
        do {
            let response = try await client.execute(
                request, deadline: .now() + .nanoseconds(Int64(timeout.seconds * 1e9)))
            let body = try await response.body.collect(upTo: 64 * 1024 * 1024)
            try await client.shutdown()
            return Answer(
                status: Int(response.status.code), setCookies: response.headers["Set-Cookie"],
                body: String(buffer: body))
        } catch {
            try? await client.shutdown()
            throw error
        }
    }
}
