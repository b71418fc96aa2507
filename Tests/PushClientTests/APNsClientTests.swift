import AsyncHTTPClient
import Foundation
import NIOSSL
import PushClients
import PushFakes
import Testing

@Suite("APNs client against a strict fake", .timeLimit(.minutes(20)))
struct APNsClientTests {
    static let token = PushFixture.apnsToken

    @Test func aSendIsAcceptedWithTheHeadersAppleAsksFor() async throws {
        try await PushFixture.with { fixture in
            #expect(await fixture.apns.lastAuthenticatedAt == nil)
            let outcome = await fixture.apns.send(PushFixture.message(token: Self.token, platform: .ios, id: "d-7-42"))
            #expect(await fixture.apns.lastAuthenticatedAt != nil, "for /health")
            let received = try #require(await fixture.state.lastAPNs)
            let apnsID = try #require(received.headers["apns-id"])
            #expect(outcome == .accepted(messageID: apnsID))
            #expect(received.path == "/3/device/\(Self.token)")
            #expect(received.headers["apns-topic"] == TestCredentials.apnsTopic)
            #expect(received.headers["apns-push-type"] == "alert")
            #expect(received.headers["apns-priority"] == "10")
            #expect(received.headers["apns-collapse-id"] == "d-7-42")
            let expiration = try #require(Int64(received.headers["apns-expiration"] ?? ""))
            // An hour on from the send; the slack is a loaded machine's, not Apple's.
            #expect(abs(expiration - Int64(Date().timeIntervalSince1970) - 3600) <= 60)
            // The same delivery always carries the same apns-id: a version 5 UUID of its id (the
            // value Python's uuid.uuid5 gives for our namespace and "d-7-42").
            #expect(apnsID == "911EC530-A3E6-5F4B-9CDE-E2A2EF3F2F00")
            let payload = try #require(try JSONSerialization.jsonObject(with: received.body) as? [String: Any])
            #expect(
                (payload["aps"] as? [String: Any])?["alert"] as? [String: String] == [
                    "title": "Milk expires \"tomorrow\" <b>", "body": "Ünïcode 🥛 & \u{202E}reversed",
                ])
            #expect(payload["delivery_id"] as? String == "d-7-42")
            #expect(payload["deep_link"] as? String == "expirytracker://items/expiring")
            #expect(await fixture.state.breaches.isEmpty)

            _ = await fixture.apns.send(PushFixture.message(token: Self.token, platform: .ios, id: "d-7-42"))
            #expect(await fixture.state.lastAPNs?.headers["apns-id"] == apnsID)
        }
    }

    static let faults: [(String, Fault, @Sendable (PushOutcome) -> Bool)] = [
        ("410 Unregistered", .apnsUnregistered, { $0 == .deadToken(reason: "Unregistered") }),
        ("400 BadDeviceToken", .badDeviceToken, { $0 == .deadToken(reason: "BadDeviceToken") }),
        ("413 PayloadTooLarge", .apnsTooLarge, { if case .failed = $0 { true } else { false } }),
        (
            "429, Retry-After 30", .tooManyRequests(retryAfter: "30"),
            { if case .retryLater(_, let after) = $0 { after == .seconds(30) } else { false } }
        ),
        ("503", .apnsUnavailable, { if case .retryLater = $0 { true } else { false } }),
        ("500", .apnsInternal, { if case .retryLater = $0 { true } else { false } }),
        (
            "400 BadTopic (our configuration)", .apns(status: 400, reason: "BadTopic"),
            { if case .credentialsProblem = $0 { true } else { false } }
        ),
        (
            "400 DeviceTokenNotForTopic", .apns(status: 400, reason: "DeviceTokenNotForTopic"),
            { if case .failed = $0 { true } else { false } }
        ),
        ("an answer slower than the timeout", .slow(.seconds(40)), { if case .unknown = $0 { true } else { false } }),
        ("a connection dropped after the request", .dropConnection, { if case .unknown = $0 { true } else { false } }),
    ]

    @Test(arguments: 0..<faults.count)
    func eachFaultMapsToItsOutcome(index: Int) async throws {
        let (name, fault, expected) = Self.faults[index]
        // The default timeout (10 s) leaves room for the OAuth exchange on a loaded machine;
        // the slow answer takes four times longer.
        try await PushFixture.with { fixture in
            await fixture.state.inject([fault], forToken: Self.token)
            let outcome = await fixture.apns.send(PushFixture.message(token: Self.token, platform: .ios))
            #expect(expected(outcome), "\(name) became \(outcome)")
            // A request the client gave up on may reach the fake's handler a moment later.
            for _ in 0..<50 where await fixture.state.counts.apnsRequests == 0 {
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(await fixture.state.counts.apnsRequests == 1, "one request, no retry by the client")
            #expect(await fixture.state.breaches.isEmpty)
        }
    }

    /// Each client's clock starts some minutes back, so that its tokens are as old to the
    /// fake as to the client once the clock moves on, and never claim to come from the future.
    @Test func providerTokensAreMadeOnScheduleAndOnceMoreWhenRefusedButNeverInAStorm() async throws {
        try await PushFixture.with { fixture in
            func client(minutesBack: Int) async throws -> (APNsClient, TestClock) {
                let clock = TestClock()
                clock.advance(TimeInterval(-minutesBack * 60))
                let apns = await APNsClient(
                    credentials: try APNsCredentials(
                        keyPath: fixture.credentials.apnsKeyPath, keyID: TestCredentials.apnsKeyID,
                        teamID: TestCredentials.apnsTeamID, topic: TestCredentials.apnsTopic),
                    baseURL: fixture.server.baseURL, client: fixture.client, now: { clock.now })
                return (apns, clock)
            }
            let message = PushFixture.message(token: Self.token, platform: .ios)
            func authorization() async -> String? { await fixture.state.lastAPNs?.headers["authorization"] }

            let (scheduled, clock) = try await client(minutesBack: 52)
            #expect(await scheduled.send(message).kind == "accepted")
            let first = await authorization()
            clock.advance(49 * 60)
            #expect(await scheduled.send(message).kind == "accepted")
            #expect(await authorization() == first, "kept for 50 minutes")
            clock.advance(2 * 60)
            #expect(await scheduled.send(message).kind == "accepted")
            #expect(await authorization() != first, "made again after 50 minutes")

            // APNs calls a 21-minute-old token expired: one fresh token, one retry.
            let (refused, refusedClock) = try await client(minutesBack: 25)
            #expect(await refused.send(message).kind == "accepted")
            let old = await authorization()
            refusedClock.advance(21 * 60)
            await fixture.state.expireProviderTokens()
            #expect(await refused.send(message).kind == "accepted")
            #expect(await fixture.state.counts.apnsRequests == 6, "the refused request and its retry")
            let fresh = await authorization()
            #expect(fresh != old)

            // The fresh token refused at once: no new token before 20 minutes (APNs would answer
            // 429 TooManyProviderTokenUpdates), and the sender stops on a credentials problem.
            await fixture.state.expireProviderTokens()
            guard case .credentialsProblem(let reason) = await refused.send(message) else {
                Issue.record("a refused young token should stop the sender")
                return
            }
            #expect(reason.contains("ExpiredProviderToken") && reason.contains("0 minutes ago"))
            #expect(await fixture.state.counts.apnsRequests == 7)
            #expect(await authorization() == fresh)
            #expect(await fixture.state.breaches.isEmpty)
        }
    }

    @Test func tooLargeAndMalformedTokensAreRefusedBeforeSending() async throws {
        try await PushFixture.with { fixture in
            var large = PushFixture.message(token: Self.token, platform: .ios)
            large.body = String(repeating: "x", count: 4100)
            guard case .failed(let reason) = await fixture.apns.send(large) else {
                Issue.record("not refused")
                return
            }
            #expect(reason.contains("payload too large"))
            for hostile in ["../../3/device/x", "ab12 cd", "", "ab12%2F"] {
                guard case .deadToken = await fixture.apns.send(PushFixture.message(token: hostile, platform: .ios))
                else {
                    Issue.record("\(hostile) was not refused")
                    continue
                }
            }
            #expect(await fixture.state.counts.apnsRequests == 0)
        }
    }

    @Test func overHTTP2AndTLSTrustingTheTestCA() async throws {
        // A debug build's TLS and RSA signing under the whole suite's load once took longer
        // than the usual 10 s: the point here is the protocol, not the speed.
        try await PushFixture.with(.tls, timeout: .seconds(60)) { fixture in
            let outcome = await fixture.apns.send(PushFixture.message(token: Self.token, platform: .ios))
            #expect(outcome.kind == "accepted")
            // The fake speaks HTTP/2 alone (ALPN h2 only), so an answer proves HTTP/2.
            #expect(await fixture.state.lastAPNs?.scheme == "https")
            // FCM and its OAuth server over the same TLS.
            let fcm = await fixture.fcm.send(PushFixture.message(token: "fcm-tls"))
            #expect(fcm.kind == "accepted", "\(fcm)")
            #expect(await fixture.state.breaches.isEmpty)
        }
    }

    /// The check above means something only if an HTTP/1.1 client gets nowhere.
    @Test func theTLSFakeRefusesHTTP1() async throws {
        try await PushFixture.with(.tls) { fixture in
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.additionalTrustRoots = [.file(fixture.credentials.caCertificatePath)]
            var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
            configuration.httpVersion = .http1Only
            let credentials = try APNsCredentials(
                keyPath: fixture.credentials.apnsKeyPath, keyID: TestCredentials.apnsKeyID,
                teamID: TestCredentials.apnsTeamID, topic: TestCredentials.apnsTopic)
            // Nothing throws between the client's making and its shutdown.
            let http1 = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            let apns = await APNsClient(
                credentials: credentials, baseURL: fixture.server.baseURL, client: http1, timeout: .seconds(2))
            #expect(await apns.send(PushFixture.message(token: Self.token, platform: .ios)).kind != "accepted")
            #expect(await fixture.state.counts.apnsRequests == 0)
            try await http1.shutdown()
        }
    }

    @Test func withoutTheTestCAtheServerIsNotTrusted() async throws {
        try await PushFixture.with(.tls) { fixture in
            let credentials = try APNsCredentials(
                keyPath: fixture.credentials.apnsKeyPath, keyID: TestCredentials.apnsKeyID,
                teamID: TestCredentials.apnsTeamID, topic: TestCredentials.apnsTopic)
            // Nothing throws between the client's making and its shutdown.
            let untrusting = try PushHTTPClients.make(extraCAFile: nil)
            let apns = await APNsClient(
                credentials: credentials, baseURL: fixture.server.baseURL, client: untrusting, timeout: .seconds(2))
            let outcome = await apns.send(PushFixture.message(token: Self.token, platform: .ios))
            if case .retryLater = outcome {} else { Issue.record("an untrusted server was talked to: \(outcome)") }
            #expect(await fixture.state.counts.apnsRequests == 0)
            try await untrusting.shutdown()
        }
    }
}
