import Foundation
import JWTKit

/// What the fake providers know and count: the keys they check signatures with, the access
/// tokens they issued, the faults waiting for a token, and every breach of protocol they saw.
public actor FakeProviderState {
    public struct Counts: Sendable, Equatable {
        public var oauthExchanges = 0
        public var fcmRequests = 0
        public var fcmAccepted = 0
        public var apnsRequests = 0
        public var apnsAccepted = 0
    }

    /// One request as received, for a test to look at.
    public struct Received: Sendable {
        public let path: String
        public let headers: [String: String]
        public let body: Data
        /// "https" behind TLS, "http" in plain HTTP/1.1.
        public let scheme: String?
    }

    public private(set) var counts = Counts()
    /// Requests that broke the protocol: each is answered with an error and listed here.
    public private(set) var breaches: [String] = []
    public private(set) var lastFCM: Received?
    /// Every delivery id received (FCM's `data.delivery_id`, APNs's `apns-collapse-id`), with
    /// how many requests carried it: a campaign must never send one twice.
    public private(set) var deliveryIDs: [String: Int] = [:]
    public private(set) var lastAPNs: Received?

    var tokenURI = ""
    let accessTokenLifetime = 3600
    private var rsaKeys: JWTKeyCollection?
    private var ecKeys: JWTKeyCollection?
    private var accessTokens: [String: Date] = [:]
    private var faults: [String: [Fault]] = [:]
    /// Provider tokens seen before `expireProviderTokens()`: answered ExpiredProviderToken.
    private var expiredProviderTokens: Set<String> = []
    private var verifiedProviderTokens: [String: Date] = [:]
    private var messageNumber = 0
    var recording = true

    public init() {}

    /// The public halves of the keys the test generated, and where the OAuth server lives.
    public func trust(_ credentials: TestCredentials, tokenURI: String) async throws {
        self.tokenURI = tokenURI
        rsaKeys = await JWTKeyCollection().add(
            rsa: try Insecure.RSA.PublicKey(pem: credentials.rsaPublicKeyPEM), digestAlgorithm: .sha256)
        ecKeys = await JWTKeyCollection().add(
            ecdsa: try ES256PublicKey(pem: credentials.apnsPublicKey.pemRepresentation),
            kid: JWKIdentifier(string: TestCredentials.apnsKeyID))
    }

    /// The next sends to `token` meet these faults, one each, in order.
    public func inject(_ faults: [Fault], forToken token: String) {
        self.faults[token, default: []].append(contentsOf: faults)
    }

    /// Every access token issued so far stops working, as when Google revokes or expires them.
    public func expireAccessTokens() {
        accessTokens.removeAll()
    }

    /// Every provider token signed so far is answered ExpiredProviderToken.
    public func expireProviderTokens() {
        expiredProviderTokens.formUnion(verifiedProviderTokens.keys)
    }

    public func setRecording(_ on: Bool) {
        recording = on
    }

    func breach(_ what: String) {
        if breaches.count < 1000 { breaches.append(what) }
    }

    func nextFault(forToken token: String) -> Fault? {
        guard var queue = faults[token], !queue.isEmpty else { return nil }
        let fault = queue.removeFirst()
        faults[token] = queue.isEmpty ? nil : queue
        return fault
    }

    // MARK: OAuth

    func issueAccessToken(assertion: String) async -> Result<(token: String, lifetime: Int), OAuthRefusal> {
        counts.oauthExchanges += 1
        guard let rsaKeys else { return .failure(.init("no key trusted yet")) }
        let header = JWTParts.header(of: assertion)
        guard header?["alg"] as? String == "RS256", header?["typ"] as? String == "JWT" else {
            return .failure(.init("the assertion's header is not {\"alg\":\"RS256\",\"typ\":\"JWT\"}"))
        }
        let claims: GoogleAssertionClaims
        do {
            claims = try await rsaKeys.verify(assertion, as: GoogleAssertionClaims.self)
        } catch {
            return .failure(.init("the assertion's signature or claims do not verify: \(error)"))
        }
        let now = Int64(Date().timeIntervalSince1970)
        let problems = [
            claims.iss == TestCredentials.clientEmail ? nil : "iss is not the client_email",
            claims.scope.split(separator: " ").contains("https://www.googleapis.com/auth/firebase.messaging")
                ? nil : "scope lacks firebase.messaging",
            claims.aud == tokenURI ? nil : "aud is not the token_uri",
            // Google's rule: short-lived and in a reasonable time frame; a little clock skew passes.
            claims.iat <= now + 300 ? nil : "iat is in the future",
            claims.exp > now ? nil : "exp has passed",
            claims.exp > claims.iat && claims.exp - claims.iat <= 3600 ? nil : "exp is not within an hour after iat",
        ].compactMap { $0 }
        if !problems.isEmpty { return .failure(.init(problems.joined(separator: "; "))) }
        let token = "ya29.fake-" + UUID().uuidString
        accessTokens[token] = Date().addingTimeInterval(TimeInterval(accessTokenLifetime))
        return .success((token, accessTokenLifetime))
    }

    func accessTokenIsValid(_ token: String) -> Bool {
        guard let expiry = accessTokens[token] else { return false }
        return expiry > Date()
    }

    // MARK: FCM and APNs

    func received(deliveryID: String?) {
        if let deliveryID { deliveryIDs[deliveryID, default: 0] += 1 }
    }

    func receivedFCM(_ request: Received) {
        counts.fcmRequests += 1
        if recording { lastFCM = request }
    }

    func acceptedFCM() -> Int {
        counts.fcmAccepted += 1
        messageNumber += 1
        return messageNumber
    }

    func receivedAPNs(_ request: Received) {
        counts.apnsRequests += 1
        if recording { lastAPNs = request }
    }

    func acceptedAPNs() {
        counts.apnsAccepted += 1
    }

    /// nil when the provider token is good; else APNs's reason for refusing it.
    func checkProviderToken(_ token: String) async -> String? {
        if expiredProviderTokens.contains(token) { return "ExpiredProviderToken" }
        if let issued = verifiedProviderTokens[token] {
            return Date().timeIntervalSince(issued) > 3600 ? "ExpiredProviderToken" : nil
        }
        guard let ecKeys else { return "InvalidProviderToken" }
        let header = JWTParts.header(of: token)
        guard header?["alg"] as? String == "ES256", header?["kid"] as? String == TestCredentials.apnsKeyID else {
            breach("APNs provider token header is not ES256 with our kid")
            return "InvalidProviderToken"
        }
        guard let claims = try? await ecKeys.verify(token, as: APNsProviderClaims.self),
            claims.iss == TestCredentials.apnsTeamID
        else {
            breach("APNs provider token does not verify, or iss is not the team id")
            return "InvalidProviderToken"
        }
        let issued = Date(timeIntervalSince1970: TimeInterval(claims.iat))
        if issued.timeIntervalSinceNow > 60 {
            breach("APNs provider token iat is in the future")
            return "InvalidProviderToken"
        }
        verifiedProviderTokens[token] = issued
        return Date().timeIntervalSince(issued) > 3600 ? "ExpiredProviderToken" : nil
    }
}

struct OAuthRefusal: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

struct GoogleAssertionClaims: JWTPayload {
    let iss: String
    let scope: String
    let aud: String
    let iat: Int64
    let exp: Int64
    func verify(using algorithm: some JWTAlgorithm) throws {}
}

struct APNsProviderClaims: JWTPayload {
    let iss: String
    let iat: Int64
    func verify(using algorithm: some JWTAlgorithm) throws {}
}

/// Reads a JWT's header without trusting it, to check what the library does not.
enum JWTParts {
    static func header(of token: String) -> [String: Any]? {
        guard let part = token.split(separator: ".", omittingEmptySubsequences: false).first else { return nil }
        var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64) else { return nil }
        return try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    }
}
