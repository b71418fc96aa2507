import AdminDomain
@testable import AdminWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TestSupport

/// A panel on a freshly seeded database with one admin account, for `app.test(.router)`.
struct TestPanel {
    static let email = "admin@example.com"
    static let password = "a long enough password"

    let temp: TemporaryDatabase
    let configuration: PanelConfiguration
    let services: PanelServices

    init(users: Int = 60, sessionPolicy: SessionPolicy = SessionPolicy(), secureCookies: Bool = false) async throws {
        temp = try TemporaryDatabase.seeded(users: users)
        configuration = PanelConfiguration(
            databasePath: temp.path, publicDirectory: TestPaths.publicDirectory, scrypt: fastScryptForTests,
            sessionPolicy: sessionPolicy, statsMaxAge: 0, secureCookies: secureCookies)
        services = PanelServices(database: try PanelDatabase.open(path: temp.path), configuration: configuration)
        try await services.admins.create(email: Self.email, password: Self.password, role: .admin)
    }

    func test<Value>(_ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        try await buildApplication(services: services, configuration: configuration).test(.router, body)
    }

    func remove() {
        temp.remove()
    }
}

extension TestClientProtocol {
    func postForm(_ uri: String, _ fields: [(String, String)], cookie: String? = nil) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        if let cookie { headers[.cookie] = cookie }
        let body = fields.map { "\($0.0)=\(formEncode($0.1))" }.joined(separator: "&")
        return try await execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    func get(_ uri: String, cookie: String? = nil) async throws -> TestResponse {
        try await execute(uri: uri, method: .get, headers: cookie.map { [.cookie: $0] } ?? [:])
    }

    /// Opens the sign-in page: the double-submit cookie to send back and the token its form carries.
    func loginForm() async throws -> (cookie: String, token: String) {
        let page = try await get("/login")
        let setCookie = try #require(page.headers[.setCookie])
        let pair = String(setCookie.prefix { $0 != ";" })
        return (pair, String(pair.drop { $0 != "=" }.dropFirst()))
    }

    /// Posts the sign-in form as a browser would, with the page's token.
    func postLogin(_ fields: [(String, String)]) async throws -> TestResponse {
        let form = try await loginForm()
        return try await postForm("/login", fields + [("_csrf", form.token)], cookie: form.cookie)
    }

    /// Posts a form as a signed-in browser would: the session cookie and the session's token.
    func postSigned(_ uri: String, _ fields: [(String, String)] = [], session cookie: String) async throws -> TestResponse {
        let token = CSRFToken.forSession(String(cookie.drop { $0 != "=" }.dropFirst()))
        return try await postForm(uri, fields + [("_csrf", token)], cookie: cookie)
    }

    /// Signs in and returns the `Cookie` header value to send afterwards.
    func signIn(email: String = TestPanel.email, password: String = TestPanel.password) async throws -> String {
        let response = try await postLogin([("email", email), ("password", password)])
        guard response.status == .seeOther, let setCookie = response.headers[.setCookie] else {
            throw TestSignInFailed(status: response.status)
        }
        return String(setCookie.prefix { $0 != ";" })
    }
}

struct TestSignInFailed: Error {
    let status: HTTPResponse.Status
}

func formEncode(_ value: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
}

extension TestResponse {
    var text: String { String(buffer: body) }
}
