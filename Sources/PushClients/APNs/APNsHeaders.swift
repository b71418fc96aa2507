import Crypto
import Foundation

/// Header values shared by the APNs client and FCM's `apns` overrides.
enum APNsHeaders {
    /// `apns-expiration`: UNIX seconds until which APNs keeps trying; 0 means try once.
    static func expiration(_ timeToLive: Duration, now: Date) -> String {
        let seconds = max(0, timeToLive.components.seconds)
        return seconds == 0 ? "0" : String(Int64(now.timeIntervalSince1970) + seconds)
    }

    /// `apns-id`, a UUID that APNs echoes back: a name-based UUID (RFC 9562, version 5) of
    /// the delivery id, so a repeat of a delivery carries the same one.
    static func apnsID(deliveryID: String) -> String {
        var hash = Insecure.SHA1()
        hash.update(data: namespace)
        hash.update(data: Data(deliveryID.utf8))
        var bytes = Array(hash.finalize().prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let digits = Array("0123456789ABCDEF".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if [4, 6, 8, 10].contains(index) { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Our namespace for those UUIDs (a random UUID, fixed once).
    private static let namespace = Data([
        0x6f, 0x1c, 0x2a, 0x9e, 0x53, 0x7b, 0x4d, 0x0a, 0x9c, 0x41, 0x0e, 0x8d, 0x27, 0xb5, 0x63, 0xf2,
    ])
}

/// The JSON body APNs delivers to the app: `aps` plus our own keys beside it.
enum APNsPayload {
    static func bytes(_ push: PushMessage) -> [UInt8] {
        var json = JSONWriter()
        json.beginObject()
        json.key("aps")
        json.beginObject()
        json.member("alert", object: [("title", push.title), ("body", push.body)])
        json.member("sound", "default")
        json.endObject()
        for (key, value) in push.customData { json.member(key, value) }
        json.endObject()
        return json.bytes
    }
}
