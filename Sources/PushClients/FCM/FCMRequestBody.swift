import Foundation

/// The HTTP v1 `messages:send` body (firebase.google.com/docs/reference/fcm/rest/v1/projects.messages):
/// `{"validate_only", "message": {"token", "notification", "data", "android", "apns"}}`.
struct FCMRequestBody {
    let bytes: [UInt8]
    /// What counts against the 4 KB limit: the notification and the data, as sent.
    let payloadBytes: Int

    init(_ push: PushMessage, now: Date) {
        var json = JSONWriter()
        json.beginObject()
        json.member("validate_only", push.dryRun)
        json.key("message")
        json.beginObject()
        json.member("token", push.token)
        let payloadStart = json.count
        json.member("notification", object: [("title", push.title), ("body", push.body)])
        json.member("data", object: push.customData)
        // Less the comma written before "notification", plus the braces of an object of its own.
        payloadBytes = json.count - payloadStart - 1 + 2
        if push.platform != .ios {
            json.key("android")
            json.beginObject()
            json.member("priority", "high")
            json.member("ttl", "\(push.timeToLiveSeconds)s")
            json.member("notification", object: [("tag", push.deliveryID)])
            json.endObject()
        }
        if push.platform != .android {
            json.key("apns")
            json.beginObject()
            json.member(
                "headers",
                object: [
                    ("apns-collapse-id", push.deliveryID),
                    ("apns-expiration", APNsHeaders.expiration(push.timeToLive, now: now)),
                    ("apns-priority", "10"),
                ])
            json.endObject()
        }
        json.endObject()
        json.endObject()
        bytes = json.bytes
    }
}

/// An FCM error answer: `{"error": {"code", "message", "status", "details": [...]}}`.
struct FCMErrorBody: Decodable {
    struct Detail: Decodable {
        struct FieldViolation: Decodable {
            let field: String?
            let description: String?
        }

        let type: String?
        let errorCode: String?
        let fieldViolations: [FieldViolation]?

        enum CodingKeys: String, CodingKey {
            case type = "@type"
            case errorCode, fieldViolations
        }
    }

    struct Status: Decodable {
        let code: Int?
        let message: String?
        let status: String?
        let details: [Detail]?
    }

    let error: Status

    /// The FCM error code from `details[].errorCode`; the top-level status is often generic.
    var errorCode: String? {
        error.details?.first { $0.type?.hasSuffix("google.firebase.fcm.v1.FcmError") == true && $0.errorCode != nil }?
            .errorCode
            ?? error.details?.compactMap(\.errorCode).first
    }

    /// Whether an INVALID_ARGUMENT is about the registration token and not about our message.
    var namesTheToken: Bool {
        let violations = error.details?.flatMap { $0.fieldViolations ?? [] } ?? []
        if violations.contains(where: { $0.field == "message.token" }) { return true }
        return error.message?.lowercased().contains("registration token") == true
    }
}
