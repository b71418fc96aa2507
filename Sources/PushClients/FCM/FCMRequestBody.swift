import Foundation

/// The HTTP v1 `messages:send` body (firebase.google.com/docs/reference/fcm/rest/v1/projects.messages).
struct FCMRequestBody: Encodable {
    struct Message: Encodable {
        struct Notification: Encodable {
            let title: String
            let body: String
        }

        struct Android: Encodable {
            struct Notification: Encodable {
                let tag: String
            }

            let priority = "high"
            /// A duration in seconds with the suffix "s", as protobuf's JSON form writes one.
            let ttl: String
            let notification: Notification
        }

        struct APNs: Encodable {
            let headers: [String: String]
        }

        let token: String
        let notification: Notification
        let data: [String: String]
        let android: Android?
        let apns: APNs?
    }

    let validate_only: Bool
    let message: Message

    init(_ push: PushMessage, now: Date) {
        let android = Message.Android(ttl: "\(push.timeToLiveSeconds)s", notification: .init(tag: push.deliveryID))
        let apns = Message.APNs(headers: [
            "apns-collapse-id": push.deliveryID,
            "apns-expiration": APNsHeaders.expiration(push.timeToLive, now: now),
            "apns-priority": "10",
        ])
        message = Message(
            token: push.token,
            notification: .init(title: push.title, body: push.body),
            data: push.customData,
            android: push.platform == .ios ? nil : android,
            apns: push.platform == .android ? nil : apns)
        validate_only = push.dryRun
    }

    /// What counts against the 4 KB limit: the notification and the data, as sent.
    static func payloadBytes(_ push: PushMessage) -> Int {
        struct Payload: Encodable {
            let notification: Message.Notification
            let data: [String: String]
        }
        let payload = Payload(notification: .init(title: push.title, body: push.body), data: push.customData)
        return (try? JSONEncoder().encode(payload).count) ?? Int.max
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
        error.details?.first { $0.type?.hasSuffix("google.firebase.fcm.v1.FcmError") == true && $0.errorCode != nil }?.errorCode
            ?? error.details?.compactMap(\.errorCode).first
    }

    /// Whether an INVALID_ARGUMENT is about the registration token and not about our message.
    var namesTheToken: Bool {
        let violations = error.details?.flatMap { $0.fieldViolations ?? [] } ?? []
        if violations.contains(where: { $0.field == "message.token" }) { return true }
        return error.message?.lowercased().contains("registration token") == true
    }
}
