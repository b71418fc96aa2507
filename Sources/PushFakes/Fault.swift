import Foundation

/// What the fake does instead of accepting one send, as the tests and the demo script it.
public enum Fault: Sendable, Equatable {
    /// An FCM error answer, `errorCode` in `details[]` the way FCM writes it.
    case fcm(
        status: Int, statusText: String, errorCode: String?, message: String, retryAfter: String? = nil,
        tokenViolation: Bool = false)
    /// An APNs error answer: `{"reason": ...}`.
    case apns(status: Int, reason: String, retryAfter: String? = nil)
    /// Answers only after this long: longer than the client's timeout, it is "no answer".
    case slow(Duration)
    /// Reads the request, starts an answer and drops the connection.
    case dropConnection

    public static let unregistered = Fault.fcm(
        status: 404, statusText: "NOT_FOUND", errorCode: "UNREGISTERED", message: "Requested entity was not found.")
    public static let invalidToken = Fault.fcm(
        status: 400, statusText: "INVALID_ARGUMENT", errorCode: "INVALID_ARGUMENT",
        message: "The registration token is not a valid FCM registration token", tokenViolation: true)
    public static let invalidMessage = Fault.fcm(
        status: 400, statusText: "INVALID_ARGUMENT", errorCode: "INVALID_ARGUMENT",
        message: "Invalid value at 'message.android.ttl'")
    public static func quotaExceeded(retryAfter: String? = nil) -> Fault {
        .fcm(
            status: 429, statusText: "RESOURCE_EXHAUSTED", errorCode: "QUOTA_EXCEEDED", message: "Quota exceeded.",
            retryAfter: retryAfter)
    }
    public static func unavailable(retryAfter: String? = nil) -> Fault {
        .fcm(
            status: 503, statusText: "UNAVAILABLE", errorCode: "UNAVAILABLE",
            message: "The service is currently unavailable.", retryAfter: retryAfter)
    }
    public static let internalError = Fault.fcm(
        status: 500, statusText: "INTERNAL", errorCode: "INTERNAL", message: "Internal error encountered.")
    public static let thirdPartyAuth = Fault.fcm(
        status: 401, statusText: "UNAUTHENTICATED", errorCode: "THIRD_PARTY_AUTH_ERROR",
        message: "Auth error from APNS or Web Push Service")
    public static let senderMismatch = Fault.fcm(
        status: 403, statusText: "PERMISSION_DENIED", errorCode: "SENDER_ID_MISMATCH", message: "SenderId mismatch")
    public static let fcmTooLarge = Fault.fcm(
        status: 413, statusText: "INVALID_ARGUMENT", errorCode: nil, message: "Request payload size exceeds the limit")

    public static let apnsUnregistered = Fault.apns(status: 410, reason: "Unregistered")
    public static let badDeviceToken = Fault.apns(status: 400, reason: "BadDeviceToken")
    public static let expiredProviderToken = Fault.apns(status: 403, reason: "ExpiredProviderToken")
    public static let apnsTooLarge = Fault.apns(status: 413, reason: "PayloadTooLarge")
    public static func tooManyRequests(retryAfter: String? = nil) -> Fault {
        .apns(status: 429, reason: "TooManyRequests", retryAfter: retryAfter)
    }
    public static let apnsUnavailable = Fault.apns(status: 503, reason: "ServiceUnavailable")
    public static let apnsInternal = Fault.apns(status: 500, reason: "InternalServerError")
}
