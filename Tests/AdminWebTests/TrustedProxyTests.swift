import AdminDomain
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AdminWeb

/// The client's address behind a proxy: believed only from a trusted peer, read from the
/// right, never an address inside a trusted range (RFC 7239 and the de-facto X-Forwarded-For).
@Suite(.timeLimit(.minutes(20))) struct TrustedProxyTests {
    static func headers(_ pairs: [(String, String)]) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in pairs { fields.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
        return fields
    }

    @Test(arguments: [
        // (peer, header, value, expected client)
        ("127.0.0.1", "X-Forwarded-For", "203.0.113.5", "203.0.113.5"),
        ("127.0.0.1", "X-Forwarded-For", "198.51.100.1, 203.0.113.5", "203.0.113.5"),
        ("127.0.0.1", "X-Forwarded-For", "203.0.113.5, 10.1.2.3", "203.0.113.5"),
        ("127.0.0.1", "X-Forwarded-For", "10.9.9.9", "127.0.0.1"),
        ("127.0.0.1", "X-Forwarded-For", "127.0.0.1", "127.0.0.1"),
        ("127.0.0.1", "X-Forwarded-For", "unknown, 203.0.113.5", "203.0.113.5"),
        ("127.0.0.1", "X-Forwarded-For", "203.0.113.5, junk", "127.0.0.1"),
        ("127.0.0.1", "X-Forwarded-For", "2001:DB8:0::1", "2001:db8::1"),
        ("::ffff:127.0.0.1", "X-Forwarded-For", "203.0.113.5", "203.0.113.5"),
        ("198.51.100.99", "X-Forwarded-For", "203.0.113.5", "198.51.100.99"),
    ])
    func theClientIsTheRightmostAddressNoTrustedProxyHolds(
        peer: String, header: String, value: String, expected: String
    ) throws {
        let trusted = try TrustedProxies(["127.0.0.1/32", "10.0.0.0/8"])
        #expect(trusted.clientAddress(peer: peer, headers: Self.headers([(header, value)])) == expected)
    }

    @Test(arguments: [
        ("for=192.0.2.60;proto=https;by=203.0.113.43", "192.0.2.60"),
        ("for=\"[2001:db8:cafe::17]:4711\"", "2001:db8:cafe::17"),
        ("for=192.0.2.43, for=\"198.51.100.17:8080\"", "198.51.100.17"),
        ("for=unknown", "127.0.0.1"),
    ])
    func withForwardedChosenOnlyThatHeaderIsRead(value: String, expected: String) throws {
        let trusted = try TrustedProxies(["127.0.0.1/32"], header: .forwarded)
        // The X-Forwarded-For a client typed passes through a proxy that writes Forwarded.
        #expect(
            trusted.clientAddress(
                peer: "127.0.0.1", headers: Self.headers([("Forwarded", value), ("X-Forwarded-For", "6.6.6.6")]))
                == expected)
    }

    /// A proxy that writes X-Forwarded-For passes a client's own Forwarded through: it is never read.
    @Test func withXForwardedForAClientsForwardedIsIgnored() throws {
        let trusted = try TrustedProxies(["127.0.0.1/32"])
        let headers = Self.headers([("Forwarded", "for=11.11.11.11"), ("X-Forwarded-For", "12.12.12.12")])
        #expect(trusted.clientAddress(peer: "127.0.0.1", headers: headers) == "12.12.12.12")
        #expect(
            trusted.clientAddress(
                peer: "127.0.0.1",
                headers: Self.headers([("Forwarded", "garbage"), ("X-Forwarded-For", "12.12.12.12")])) == "12.12.12.12")
        #expect(TrustedProxies.canonicalAddress("[2001:DB8:0::77]") == "2001:db8::77")
    }

    @Test func withoutTrustedProxiesTheHeadersAreIgnoredAndBadRangesRefused() throws {
        #expect(
            TrustedProxies.none.clientAddress(
                peer: "127.0.0.1", headers: Self.headers([("X-Forwarded-For", "203.0.113.5")])) == "127.0.0.1")
        #expect(throws: TrustedProxyError.self) { try TrustedProxies(["10.0.0.0/33"]) }
        #expect(throws: TrustedProxyError.self) { try TrustedProxies(["proxy.example.com"]) }
        let v6 = try TrustedProxies(["::1", "fd00::/8"])
        #expect(
            v6.clientAddress(peer: "fd12::1", headers: Self.headers([("X-Forwarded-For", "2001:db8::1")]))
                == "2001:db8::1")
    }

    /// Failed sign-ins with made-up emails from one address (the attack that locked every
    /// staff member out behind a proxy): eight recorded straight into the throttle, so that
    /// its delay (32 s) outlasts any busy machine, and one more through the proxy. Then the
    /// right password from another forwarded client and from the failing one.
    static func signIns(trusted: [String], failingAddress: String) async throws
        -> (other: HTTPResponse.Status, same: HTTPResponse.Status, addresses: [String])
    {
        var panel = try await TestPanel(areas: [])
        defer { panel.remove() }
        panel.configuration.trustedProxies = try TrustedProxies(trusted)
        panel.rebuildAreas()
        for index in 1...8 {
            _ = try await panel.areas.auth.signIn.throttle.recordFailure(
                email: "nobody\(index)@example.com", address: failingAddress)
        }
        let app = panel.application()
        let (other, same) = try await app.test(.live) { client in
            func signIn(_ email: String, _ password: String, from address: String) async throws -> HTTPResponse.Status {
                let form = try await client.loginForm()
                let body = [("email", email), ("password", password), ("_csrf", form.token)]
                    .map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }
                    .joined(separator: "&")
                return try await client.execute(
                    uri: "/login", method: .post,
                    headers: [
                        .contentType: "application/x-www-form-urlencoded", .cookie: form.cookie,
                        HTTPField.Name("X-Forwarded-For")!: address,
                    ],
                    body: ByteBuffer(string: body)
                ).status
            }
            _ = try await signIn("stranger@example.com", "wrong wrong wrong", from: "203.0.113.5")
            return (
                try await signIn(TestPanel.email, TestPanel.password, from: "198.51.100.7"),
                try await signIn(TestPanel.email, TestPanel.password, from: "203.0.113.5")
            )
        }
        try await panel.areas.auth.signIn.unauthenticatedEvents.flush()
        let addresses = try await panel.areas.database.read { db in
            try String.fetchAll(
                db,
                sql: "SELECT DISTINCT client_address FROM panel_audit_log WHERE client_address IS NOT NULL ORDER BY 1")
        }
        return (other, same, addresses)
    }

    @Test func behindATrustedProxyOneClientsFailuresDoNotRefuseAnother() async throws {
        let (other, same, addresses) = try await Self.signIns(trusted: ["127.0.0.1/32"], failingAddress: "203.0.113.5")
        #expect(other == .seeOther, "another client's right password is let in")
        #expect(same == .tooManyRequests, "the client that failed waits")
        // (The admin's right password leads to the code page, which writes no row yet.)
        #expect(addresses == ["203.0.113.5"], "the audit log has the forwarded address, never the proxy's")
    }

    /// Issue 32, finding 4: from one client, an email that spells another client's pair in the
    /// throttle's old key text (`victim|address` + NUL) locked that person's sign-in from their
    /// own address. Ten failures are recorded straight into the throttle (a patient attacker
    /// waits out the delays), seven more are sent through the proxy; then the victim signs in.
    @Test(arguments: [
        "\(TestPanel.supportEmail)|198.51.100.7\u{0}", "\(TestPanel.supportEmail)|198.51.100.7\u{0}x",
        "\(TestPanel.supportEmail)|198.51.100.7",
    ])
    func behindATrustedProxyAForgedEmailLocksNobodyElse(forged: String) async throws {
        var panel = try await TestPanel(areas: [])
        defer { panel.remove() }
        panel.configuration.trustedProxies = try TrustedProxies(["127.0.0.1/32"])
        panel.rebuildAreas()
        _ = try await panel.addStaff()
        for _ in 1...10 {
            _ = try await panel.areas.auth.signIn.throttle.recordFailure(email: forged, address: "203.0.113.5")
        }
        let app = panel.application()
        let (attacker, victim) = try await app.test(.live) { client in
            func signIn(_ email: String, _ password: String, from address: String) async throws -> HTTPResponse.Status {
                let form = try await client.loginForm()
                let body = [("email", email), ("password", password), ("_csrf", form.token)]
                    .map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }
                    .joined(separator: "&")
                return try await client.execute(
                    uri: "/login", method: .post,
                    headers: [
                        .contentType: "application/x-www-form-urlencoded", .cookie: form.cookie,
                        HTTPField.Name("X-Forwarded-For")!: address,
                    ],
                    body: ByteBuffer(string: body)
                ).status
            }
            var attacker: [HTTPResponse.Status] = []
            for _ in 1...7 { attacker.append(try await signIn(forged, "any password at all", from: "203.0.113.5")) }
            return (attacker, try await signIn(TestPanel.supportEmail, TestPanel.password, from: "198.51.100.7"))
        }
        #expect(
            attacker.allSatisfy { $0 == .tooManyRequests || $0 == .badRequest || $0 == .unprocessableContent },
            "\(attacker)")
        #expect(victim == .seeOther, "the victim's right password from their own address is let in")
    }

    @Test func withoutTheOptionAClientsOwnForwardedForChangesNothing() async throws {
        let (other, _, addresses) = try await Self.signIns(trusted: [], failingAddress: "127.0.0.1")
        #expect(other == .tooManyRequests, "every request comes from the same peer, whatever it says")
        #expect(addresses == ["127.0.0.1"])
    }
}
