import Foundation
import PushClients
import PushFakes
import Testing

@Suite("FCM HTTP v1 client against a strict fake", .timeLimit(.minutes(20)))
struct FCMClientTests {
    @Test func aSendIsAcceptedAndCarriesWhatTheDocumentationAsks() async throws {
        try await PushFixture.with { fixture in
            #expect(await fixture.fcm.lastAuthenticatedAt == nil)
            let outcome = await fixture.fcm.send(PushFixture.message(token: "fcm-token-1", platform: .android))
            #expect(await fixture.fcm.lastAuthenticatedAt != nil, "for /health")
            #expect(outcome == .accepted(messageID: "projects/\(TestCredentials.projectID)/messages/1"))
            let received = try #require(await fixture.state.lastFCM)
            #expect(received.path == "/v1/projects/\(TestCredentials.projectID)/messages:send")
            #expect(received.headers["authorization"]?.hasPrefix("Bearer ya29.fake-") == true)
            let body = try #require(try JSONSerialization.jsonObject(with: received.body) as? [String: Any])
            #expect(body["validate_only"] as? Bool == false)
            let message = try #require(body["message"] as? [String: Any])
            #expect(message["token"] as? String == "fcm-token-1")
            #expect(
                message["notification"] as? [String: String] == [
                    "title": "Milk expires \"tomorrow\" <b>", "body": "Ünïcode 🥛 & \u{202E}reversed",
                ])
            #expect(
                message["data"] as? [String: String] == [
                    "delivery_id": "d-1-1", "deep_link": "expirytracker://items/expiring",
                ])
            let android = try #require(message["android"] as? [String: Any])
            #expect(android["priority"] as? String == "high")
            #expect(android["ttl"] as? String == "3600s")
            #expect(android["notification"] as? [String: String] == ["tag": "d-1-1"])
            #expect(message["apns"] == nil, "an Android device gets no APNs block")
            #expect(await fixture.state.breaches.isEmpty)
        }
    }

    @Test func anIOSDeviceThroughFCMGetsTheAPNsOverrides() async throws {
        try await PushFixture.with { fixture in
            #expect(await fixture.fcm.send(PushFixture.message(token: "fcm-ios", platform: .ios)).kind == "accepted")
            let received = try #require(await fixture.state.lastFCM)
            let message = try #require(
                (try JSONSerialization.jsonObject(with: received.body) as? [String: Any])?["message"] as? [String: Any])
            let headers = try #require((message["apns"] as? [String: Any])?["headers"] as? [String: String])
            #expect(headers["apns-collapse-id"] == "d-1-1")
            #expect(headers["apns-priority"] == "10")
            #expect(Int64(headers["apns-expiration"] ?? "") != nil)
            #expect(message["android"] == nil)
            #expect(await fixture.state.breaches.isEmpty)
        }
    }

    @Test func aDryRunAsksFCMToValidateOnly() async throws {
        try await PushFixture.with { fixture in
            let outcome = await fixture.fcm.send(PushFixture.message(token: "fcm-dry", dryRun: true))
            #expect(outcome == .accepted(messageID: "projects/\(TestCredentials.projectID)/messages/fake_message_id"))
            let received = try #require(await fixture.state.lastFCM)
            #expect(
                (try JSONSerialization.jsonObject(with: received.body) as? [String: Any])?["validate_only"] as? Bool
                    == true)
        }
    }

    /// Each injected answer and the outcome it must become.
    static let faults: [(String, Fault, @Sendable (PushOutcome) -> Bool)] = [
        ("404 UNREGISTERED", .unregistered, { $0 == .deadToken(reason: "UNREGISTERED") }),
        ("400 INVALID_ARGUMENT naming the token", .invalidToken, { if case .deadToken = $0 { true } else { false } }),
        ("400 INVALID_ARGUMENT about the message", .invalidMessage, { if case .failed = $0 { true } else { false } }),
        (
            "429 QUOTA_EXCEEDED, Retry-After 5", .quotaExceeded(retryAfter: "5"),
            { $0 == .retryLater(reason: "QUOTA_EXCEEDED", after: .seconds(60)) }
        ),
        (
            "429 QUOTA_EXCEEDED, Retry-After 120", .quotaExceeded(retryAfter: "120"),
            { $0 == .retryLater(reason: "QUOTA_EXCEEDED", after: .seconds(120)) }
        ),
        (
            "429 QUOTA_EXCEEDED without Retry-After", .quotaExceeded(),
            { if case .retryLater(_, let after) = $0 { after >= .seconds(60) } else { false } }
        ),
        (
            "503 UNAVAILABLE, Retry-After 7", .unavailable(retryAfter: "7"),
            { $0 == .retryLater(reason: "UNAVAILABLE", after: .seconds(7)) }
        ),
        (
            "503 UNAVAILABLE, back-off", .unavailable(),
            {
                if case .retryLater(_, let after) = $0 {
                    after >= .milliseconds(500) && after <= .seconds(1)
                } else {
                    false
                }
            }
        ),
        (
            "500 INTERNAL", .internalError,
            { if case .retryLater(let reason, _) = $0 { reason == "INTERNAL" } else { false } }
        ),
        ("401 THIRD_PARTY_AUTH_ERROR", .thirdPartyAuth, { if case .credentialsProblem = $0 { true } else { false } }),
        ("403 SENDER_ID_MISMATCH", .senderMismatch, { if case .credentialsProblem = $0 { true } else { false } }),
        ("413", .fcmTooLarge, { if case .failed = $0 { true } else { false } }),
        ("an answer slower than the timeout", .slow(.seconds(40)), { if case .unknown = $0 { true } else { false } }),
        ("a connection dropped after the request", .dropConnection, { if case .unknown = $0 { true } else { false } }),
    ]

    @Test(arguments: 0..<faults.count)
    func eachFaultMapsToItsOutcome(index: Int) async throws {
        let (name, fault, expected) = Self.faults[index]
        // The default timeout (10 s) leaves room for the OAuth exchange on a loaded machine;
        // the slow answer takes four times longer.
        try await PushFixture.with { fixture in
            await fixture.state.inject([fault], forToken: "fcm-faulty")
            let outcome = await fixture.fcm.send(PushFixture.message(token: "fcm-faulty"))
            #expect(expected(outcome), "\(name) became \(outcome)")
            // Credentials problems never cost a token refresh: a new access token would not help.
            #expect(await fixture.state.counts.oauthExchanges == 1)
            #expect(await fixture.state.breaches.isEmpty)
            // The next send to the same device goes through: the fake's fault was one answer.
            if case .unknown = outcome {
            } else {
                #expect(await fixture.fcm.send(PushFixture.message(token: "fcm-faulty")).kind == "accepted")
            }
        }
    }

    @Test func aThousandConcurrentSendsShareOneOAuthExchangeAndAnExpiredTokenOneRefresh() async throws {
        // What is counted is exchanges, not time. Alone it takes 3 s (12 s beside four busy
        // loops); in the whole suite on two cores it took 193 s, and a send's 90 s ran out. The
        // timeout is only there so that a lost answer still ends the test.
        try await PushFixture.with(timeout: .seconds(600)) { fixture in
            await fixture.state.setRecording(false)
            let fcm = fixture.fcm
            /// Outcomes by kind; a kind other than accepted is reported with one of its sentences.
            func sendThousand(_ round: Int) async -> [String: Int] {
                let outcomes = await withTaskGroup(of: PushOutcome.self) { group in
                    for index in 0..<1000 {
                        group.addTask {
                            await fcm.send(PushFixture.message(token: "fcm-\(index)", id: "d-\(round)-\(index)"))
                        }
                    }
                    return await group.reduce(into: [PushOutcome]()) { $0.append($1) }
                }
                if let other = outcomes.first(where: { $0.kind != "accepted" }) {
                    Issue.record("round \(round): \(other.sentence)")
                }
                return outcomes.reduce(into: [:]) { $0[$1.kind, default: 0] += 1 }
            }
            #expect(await sendThousand(1) == ["accepted": 1000])
            #expect(await fixture.state.counts.oauthExchanges == 1)

            // Google stops taking the token before its time: every send gets a 401, one refresh.
            // The client's clock is put 56 minutes back first, so that the new token, good for an
            // hour from the assertion's iat, has four minutes left once the clock is put right.
            fixture.clock.advance(-56 * 60)
            await fixture.state.expireAccessTokens()
            #expect(await sendThousand(2) == ["accepted": 1000])
            #expect(await fixture.state.counts.oauthExchanges == 2)

            // Within five minutes of its expiry: one refresh.
            fixture.clock.advance(56 * 60)
            #expect(await sendThousand(3) == ["accepted": 1000])
            #expect(await fixture.state.counts.oauthExchanges == 3)
            #expect(await fixture.state.breaches.isEmpty)
        }
    }

    @Test func aRefusedAssertionIsACredentialsProblemNotTheDevice() async throws {
        try await PushFixture.with { fixture in
            // The fake now checks signatures against someone else's key.
            let stranger = try await TestCredentials.make(
                tokenURI: fixture.server.tokenURI, freshServiceAccountKey: true)
            defer { stranger.remove() }
            try await fixture.state.trust(stranger, tokenURI: fixture.server.tokenURI)
            let outcome = await fixture.fcm.send(PushFixture.message(token: "fcm-1"))
            guard case .credentialsProblem(let reason) = outcome else {
                Issue.record("got \(outcome)")
                return
            }
            #expect(reason.contains("invalid_grant"))
            #expect(await fixture.state.counts.fcmRequests == 0)
        }
    }

    @Test func tooLargeIsRefusedBeforeSending() async throws {
        try await PushFixture.with { fixture in
            var message = PushFixture.message(token: "fcm-1")
            message.body = String(repeating: "é", count: 2100)
            guard case .failed(let reason) = await fixture.fcm.send(message) else {
                Issue.record("not refused")
                return
            }
            #expect(reason.contains("payload too large"))
            #expect(await fixture.state.counts.fcmRequests == 0)
        }
    }

    @Test func aProviderThatCannotBeReachedIsRetriedNotUnknown() async throws {
        try await PushFixture.with(timeout: .seconds(2)) { fixture in
            await fixture.server.stop()
            let outcome = await fixture.fcm.send(PushFixture.message(token: "fcm-1"))
            guard case .retryLater(let reason, _) = outcome else {
                Issue.record("got \(outcome)")
                return
            }
            #expect(reason.contains("OAuth"))
        }
    }
}
