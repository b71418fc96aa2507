import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AdminWeb

/// RFC 9110: HEAD is GET without the body, the same status and headers.
@Suite(.timeLimit(.minutes(20))) struct HeadRequestTests {
    @Test func headAnswersEveryGetRouteWithItsStatusAndHeadersAndNoBody() async throws {
        let panel = try await TestPanel()
        defer { panel.remove() }
        try await panel.test { client in
            let cookie = try await panel.signIn(client)
            for path in ["/login", "/health", "/", "/campaigns", "/users/1", "/static/css/app.css", "/no-such-page"] {
                let get = try await client.execute(uri: path, method: .get, headers: [.cookie: cookie])
                let head = try await client.execute(uri: path, method: .head, headers: [.cookie: cookie])
                #expect(head.status == get.status, "\(path)")
                #expect(head.body.readableBytes == 0, "\(path)")
                #expect(head.headers[.contentType] == get.headers[.contentType], "\(path)")
            }
            // Signed out, HEAD is sent to sign in as GET is.
            let signedOut = try await client.execute(uri: "/campaigns", method: .head)
            #expect(signedOut.status == .seeOther && signedOut.headers[.location]?.hasPrefix("/login") == true)
        }
    }

    /// Over a real connection: HEAD carries the GET's length, and the same connection goes on
    /// to answer a GET after it.
    @Test func headOverTheWireCarriesTheLengthAndKeepsTheConnection() async throws {
        let panel = try await TestPanel()
        defer { panel.remove() }
        let app = panel.application()
        try await app.test(.live) { client in
            let get = try await client.execute(uri: "/static/css/app.css", method: .get)
            let head = try await client.execute(uri: "/static/css/app.css", method: .head)
            #expect(head.status == .ok && head.body.readableBytes == 0)
            #expect(head.headers[.contentLength] == String(get.body.readableBytes))
            let again = try await client.execute(uri: "/health", method: .get)
            #expect(again.status == .ok || again.status == .serviceUnavailable)
        }
    }
}
