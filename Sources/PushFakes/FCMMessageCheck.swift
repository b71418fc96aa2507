import Foundation

/// The `messages:send` body checked field by field: FCM refuses unknown names and
/// non-string values in `data` and in the APNs headers.
struct FCMMessageCheck {
    let token: String
    let validateOnly: Bool

    struct Problem: Error {
        let reason: String
    }

    /// Types, through a decoder that will not read `1` as a string or a boolean.
    private struct Body: Decodable {
        struct Message: Decodable {
            struct Android: Decodable {
                let priority: String?
                let ttl: String?
                let notification: [String: String]?
                let collapse_key: String?
            }

            struct APNs: Decodable {
                let headers: [String: String]?
            }

            let token: String
            let notification: [String: String]?
            let data: [String: String]?
            let android: Android?
            let apns: APNs?
        }

        let validate_only: Bool?
        let message: Message
    }

    static func parse(_ bytes: Data) -> Result<FCMMessageCheck, Problem> {
        func fail(_ reason: String) -> Result<FCMMessageCheck, Problem> { .failure(Problem(reason: reason)) }
        // Names, through a reader that keeps every key.
        guard let root = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any] else { return fail("not a JSON object") }
        let allowed: [(path: String, object: Any?, keys: Set<String>)] = [
            ("", root, ["validate_only", "message"]),
            ("message", root["message"], ["token", "notification", "data", "android", "apns", "webpush", "fcm_options"]),
            ("message.notification", (root["message"] as? [String: Any])?["notification"], ["title", "body", "image"]),
            ("message.android", (root["message"] as? [String: Any])?["android"], ["priority", "ttl", "notification", "collapse_key", "data"]),
            ("message.apns", (root["message"] as? [String: Any])?["apns"], ["headers", "payload", "fcm_options"]),
        ]
        for (path, object, keys) in allowed {
            if let fields = object as? [String: Any], let unknown = Set(fields.keys).subtracting(keys).sorted().first {
                return fail("Unknown name \"\(unknown)\" at '\(path)'")
            }
        }
        let body: Body
        do {
            body = try JSONDecoder().decode(Body.self, from: bytes)
        } catch {
            return fail("a field has the wrong type: \(error)")
        }
        let message = body.message
        if message.token.isEmpty { return fail("message.token is empty") }
        let deliveryID = message.data?["delivery_id"]
        if let android = message.android {
            if let priority = android.priority, !["high", "normal", "HIGH", "NORMAL"].contains(priority) {
                return fail("Invalid value at 'message.android.priority'")
            }
            if let ttl = android.ttl, !(ttl.hasSuffix("s") && Double(ttl.dropLast()).map { $0 >= 0 } == true) {
                return fail("Invalid value at 'message.android.ttl'")
            }
            if let tag = android.notification?["tag"], tag != deliveryID {
                return fail("message.android.notification.tag is not the delivery id")
            }
        }
        if let collapse = message.apns?.headers?["apns-collapse-id"], collapse != deliveryID {
            return fail("apns-collapse-id is not the delivery id")
        }
        return .success(FCMMessageCheck(token: message.token, validateOnly: body.validate_only ?? false))
    }
}
