import Foundation

/// The `messages:send` body checked field by field: FCM refuses unknown names and
/// non-string values in `data` and in the APNs headers.
struct FCMMessageCheck {
    let token: String
    let validateOnly: Bool
    let deliveryID: String?

    struct Problem: Error {
        let reason: String
    }

    /// One pass of a decoder that will not read `1` as a string or a boolean, and that
    /// refuses a name FCM does not know at each level, as FCM does.
    private struct Body: Decodable {
        struct Message: Decodable {
            struct Android: Decodable {
                let priority: String?
                let ttl: String?
                let notification: [String: String]?
                let collapseKey: String?

                init(from decoder: any Decoder) throws {
                    try FCMMessageCheck.refuseUnknownNames(
                        decoder, ["priority", "ttl", "notification", "collapse_key", "data"], at: "message.android")
                    let fields = try decoder.container(keyedBy: CodingKeys.self)
                    priority = try fields.decodeIfPresent(String.self, forKey: .priority)
                    ttl = try fields.decodeIfPresent(String.self, forKey: .ttl)
                    notification = try fields.decodeIfPresent([String: String].self, forKey: .notification)
                    collapseKey = try fields.decodeIfPresent(String.self, forKey: .collapseKey)
                }

                enum CodingKeys: String, CodingKey {
                    case priority, ttl, notification
                    case collapseKey = "collapse_key"
                }
            }

            struct APNs: Decodable {
                let headers: [String: String]?

                init(from decoder: any Decoder) throws {
                    try FCMMessageCheck.refuseUnknownNames(
                        decoder, ["headers", "payload", "fcm_options"], at: "message.apns")
                    headers = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(
                        [String: String].self, forKey: .headers)
                }

                enum CodingKeys: String, CodingKey { case headers }
            }

            let token: String
            let notification: [String: String]?
            let data: [String: String]?
            let android: Android?
            let apns: APNs?

            init(from decoder: any Decoder) throws {
                try FCMMessageCheck.refuseUnknownNames(
                    decoder, ["token", "notification", "data", "android", "apns", "webpush", "fcm_options"],
                    at: "message")
                let fields = try decoder.container(keyedBy: CodingKeys.self)
                token = try fields.decode(String.self, forKey: .token)
                notification = try fields.decodeIfPresent([String: String].self, forKey: .notification)
                if let notification,
                    let unknown = Set(notification.keys).subtracting(["title", "body", "image"]).sorted().first
                {
                    throw Problem(reason: "Unknown name \"\(unknown)\" at 'message.notification'")
                }
                data = try fields.decodeIfPresent([String: String].self, forKey: .data)
                android = try fields.decodeIfPresent(Android.self, forKey: .android)
                apns = try fields.decodeIfPresent(APNs.self, forKey: .apns)
            }

            enum CodingKeys: String, CodingKey { case token, notification, data, android, apns }
        }

        let validateOnly: Bool?
        let message: Message

        init(from decoder: any Decoder) throws {
            try FCMMessageCheck.refuseUnknownNames(decoder, ["validate_only", "message"], at: "")
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            validateOnly = try fields.decodeIfPresent(Bool.self, forKey: .validateOnly)
            message = try fields.decode(Message.self, forKey: .message)
        }

        enum CodingKeys: String, CodingKey {
            case validateOnly = "validate_only"
            case message
        }
    }

    private struct AnyName: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    static func refuseUnknownNames(_ decoder: any Decoder, _ known: Set<String>, at path: String) throws {
        let names = try decoder.container(keyedBy: AnyName.self).allKeys.map(\.stringValue)
        if let unknown = names.filter({ !known.contains($0) }).sorted().first {
            throw Problem(reason: "Unknown name \"\(unknown)\" at '\(path)'")
        }
    }

    static func parse(_ bytes: Data) -> Result<FCMMessageCheck, Problem> {
        func fail(_ reason: String) -> Result<FCMMessageCheck, Problem> { .failure(Problem(reason: reason)) }
        let body: Body
        do {
            body = try JSONDecoder().decode(Body.self, from: bytes)
        } catch let problem as Problem {
            return .failure(problem)
        } catch {
            return fail("not JSON, or a field has the wrong type: \(error)")
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
        return .success(
            FCMMessageCheck(token: message.token, validateOnly: body.validateOnly ?? false, deliveryID: deliveryID))
    }
}
