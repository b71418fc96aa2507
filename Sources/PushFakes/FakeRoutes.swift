import Foundation
import HTTPTypes
import Hummingbird

/// The three endpoints. A request that breaks the protocol gets the error the real service
/// would give and is listed in `state.breaches`.
struct FakeRoutes: Sendable {
    let state: FakeProviderState

    func add(to router: Router<BasicRequestContext>) {
        router.post("/token") { request, _ in try await self.token(request) }
        router.post("/v1/projects/{project}/{action}") { request, context in
            try await self.fcm(
                request, project: context.parameters.get("project") ?? "",
                action: context.parameters.get("action") ?? "")
        }
        router.post("/3/device/{token}") { request, context in
            try await self.apns(request, deviceToken: context.parameters.get("token") ?? "")
        }
    }

    // MARK: OAuth (RFC 7523 JWT bearer grant)

    func token(_ request: Request) async throws -> Response {
        let body = try await request.body.collect(upTo: 64 * 1024)
        guard request.headers[.contentType]?.hasPrefix("application/x-www-form-urlencoded") == true else {
            await state.breach("OAuth: content-type is not application/x-www-form-urlencoded")
            return json(400, ["error": "invalid_request", "error_description": "bad content type"])
        }
        var form = URLComponents()
        form.percentEncodedQuery = String(buffer: body)
        let fields = Dictionary(
            (form.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
        guard fields["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer", let assertion = fields["assertion"]
        else {
            await state.breach("OAuth: grant_type or assertion missing")
            return json(400, ["error": "unsupported_grant_type", "error_description": "Invalid grant_type"])
        }
        switch await state.issueAccessToken(assertion: assertion) {
        case .success(let issued):
            return json(200, ["access_token": issued.token, "expires_in": issued.lifetime, "token_type": "Bearer"])
        case .failure(let refusal):
            await state.breach("OAuth: \(refusal.reason)")
            return json(400, ["error": "invalid_grant", "error_description": refusal.reason])
        }
    }

    // MARK: FCM HTTP v1

    func fcm(_ request: Request, project: String, action: String) async throws -> Response {
        let body = try await request.body.collect(upTo: 1024 * 1024)
        let bytes = Data(buffer: body)
        await state.receivedFCM(
            .init(path: request.uri.path, headers: headers(of: request), body: bytes, scheme: request.head.scheme))
        guard project == TestCredentials.projectID, action == "messages:send" else {
            await state.breach("FCM: path \(request.uri.path)")
            return fcmError(404, "NOT_FOUND", nil, "Requested entity was not found.")
        }
        let bearer = request.headers[.authorization] ?? ""
        guard bearer.hasPrefix("Bearer "), await state.accessTokenIsValid(String(bearer.dropFirst(7))) else {
            return fcmError(401, "UNAUTHENTICATED", nil, "Request had invalid authentication credentials.")
        }
        guard request.headers[.contentType]?.hasPrefix("application/json") == true else {
            await state.breach("FCM: content-type is not application/json")
            return fcmError(400, "INVALID_ARGUMENT", nil, "Invalid content type")
        }
        let message: FCMMessageCheck
        switch FCMMessageCheck.parse(bytes) {
        case .success(let parsed): message = parsed
        case .failure(let problem):
            await state.breach("FCM: \(problem.reason)")
            return fcmError(
                400, "INVALID_ARGUMENT", "INVALID_ARGUMENT", "Invalid JSON payload received. \(problem.reason)")
        }
        await state.received(deliveryID: message.deliveryID)
        if let fault = await state.nextFault(forToken: message.token) {
            return try await answer(fault)
        }
        let number = await state.acceptedFCM()
        return json(
            200, ["name": "projects/\(project)/messages/\(message.validateOnly ? "fake_message_id" : String(number))"])
    }

    // MARK: APNs

    func apns(_ request: Request, deviceToken: String) async throws -> Response {
        let body = try await request.body.collect(upTo: 64 * 1024)
        let bytes = Data(buffer: body)
        await state.receivedAPNs(
            .init(path: request.uri.path, headers: headers(of: request), body: bytes, scheme: request.head.scheme))
        let authorization = request.headers[.authorization] ?? ""
        guard authorization.hasPrefix("bearer ") else { return apnsError(403, "MissingProviderToken") }
        if let refusal = await state.checkProviderToken(String(authorization.dropFirst(7))) {
            return apnsError(403, refusal)
        }
        let field = { (name: String) in request.headers[HTTPField.Name(name)!] }
        guard field("apns-topic") == TestCredentials.apnsTopic else {
            await state.breach("APNs: apns-topic is \(field("apns-topic") ?? "missing")")
            return apnsError(400, field("apns-topic") == nil ? "MissingTopic" : "BadTopic")
        }
        var problems: [String] = []
        if field("apns-push-type") != "alert" { problems.append("apns-push-type is not alert") }
        if !["5", "10"].contains(field("apns-priority") ?? "") { problems.append("apns-priority is not 5 or 10") }
        if let expiration = field("apns-expiration"), Int64(expiration) == nil {
            problems.append("apns-expiration is not a number")
        }
        if field("apns-expiration") == nil { problems.append("apns-expiration missing") }
        if (field("apns-collapse-id")?.utf8.count ?? 0) > 64 { problems.append("apns-collapse-id over 64 bytes") }
        if field("apns-id").flatMap(UUID.init(uuidString:)) == nil { problems.append("apns-id is not a UUID") }
        if !problems.isEmpty {
            await state.breach("APNs: " + problems.joined(separator: "; "))
            return apnsError(400, "BadMessageId")
        }
        guard !deviceToken.isEmpty, deviceToken.allSatisfy(\.isHexDigit) else {
            await state.breach("APNs: a token that is not hexadecimal was sent")
            return apnsError(400, "BadDeviceToken")
        }
        if bytes.count > 4096 {
            await state.breach("APNs: payload over 4096 bytes was sent")
            return apnsError(413, "PayloadTooLarge")
        }
        guard let payload = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any],
            let aps = payload["aps"] as? [String: Any], aps["alert"] != nil
        else {
            await state.breach("APNs: the payload has no aps.alert")
            return apnsError(400, "PayloadEmpty")
        }
        if let collapse = field("apns-collapse-id"), payload["delivery_id"] as? String != collapse {
            await state.breach("APNs: apns-collapse-id is not the payload's delivery_id")
        }
        await state.received(deliveryID: field("apns-collapse-id"))
        if let fault = await state.nextFault(forToken: deviceToken) {
            return try await answer(fault)
        }
        await state.acceptedAPNs()
        return Response(status: .ok, headers: [HTTPField.Name("apns-id")!: field("apns-id") ?? UUID().uuidString])
    }

    // MARK: Answers

    func answer(_ fault: Fault) async throws -> Response {
        switch fault {
        case .fcm(let status, let statusText, let errorCode, let message, let retryAfter, let tokenViolation):
            var response = fcmError(status, statusText, errorCode, message, tokenViolation: tokenViolation)
            if let retryAfter { response.headers[.retryAfter] = retryAfter }
            return response
        case .apns(let status, let reason, let retryAfter):
            var response = apnsError(status, reason)
            if let retryAfter { response.headers[.retryAfter] = retryAfter }
            return response
        case .slow(let delay):
            try await Task.sleep(for: delay)
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: "{}")))
        case .dropConnection:
            // The head goes out, then the body fails: the server closes the connection
            // (HTTP/1.1) or resets the stream (HTTP/2) with no complete answer.
            return Response(
                status: .ok, headers: [.contentLength: "100"], body: .init { _ in throw DroppedOnPurpose() })
        }
    }

    func fcmError(_ code: Int, _ status: String, _ errorCode: String?, _ message: String, tokenViolation: Bool = false)
        -> Response
    {
        var details: [[String: Any]] = []
        if let errorCode {
            details.append(["@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": errorCode])
        }
        if tokenViolation {
            details.append([
                "@type": "type.googleapis.com/google.rpc.BadRequest",
                "fieldViolations": [["field": "message.token", "description": "Invalid registration token"]],
            ])
        }
        return json(code, ["error": ["code": code, "message": message, "status": status, "details": details]])
    }

    func apnsError(_ code: Int, _ reason: String) -> Response {
        var body: [String: Any] = ["reason": reason]
        if code == 410 { body["timestamp"] = Int64(Date().timeIntervalSince1970 * 1000) }
        return json(code, body)
    }

    func json(_ status: Int, _ object: [String: Any]) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return Response(
            status: .init(code: status), headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    func headers(of request: Request) -> [String: String] {
        Dictionary(request.headers.map { ($0.name.canonicalName, $0.value) }, uniquingKeysWith: { first, _ in first })
    }
}

struct DroppedOnPurpose: Error {}
