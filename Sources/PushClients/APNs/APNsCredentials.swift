import Foundation
import JWTKit

/// An APNs token-signing key (`AuthKey_KEYID.p8`), its key id and the team it belongs to.
public struct APNsCredentials: Sendable, CustomStringConvertible {
    public let keyID: String
    public let teamID: String
    /// The app's bundle id, sent as `apns-topic`.
    public let topic: String
    let key: ES256PrivateKey

    public init(keyPath: String, keyID: String, teamID: String, topic: String) throws(PushConfigurationError) {
        guard let data = FileManager.default.contents(atPath: keyPath) else {
            throw PushConfigurationError("--apns-key \"\(keyPath)\" cannot be read")
        }
        try self.init(
            p8: String(decoding: data, as: UTF8.self), source: keyPath, keyID: keyID, teamID: teamID, topic: topic)
    }

    public init(p8: String, source: String, keyID: String, teamID: String, topic: String) throws(PushConfigurationError)
    {
        guard let key = try? ES256PrivateKey(pem: p8) else {
            throw PushConfigurationError("--apns-key \"\(source)\" is not a P-256 private key in PEM (.p8)")
        }
        // Apple's key and team ids are ten letters and digits; anything else would only
        // come back from APNs as InvalidProviderToken on every push.
        for (option, value) in [("--apns-key-id", keyID), ("--apns-team-id", teamID)] {
            guard value.count == 10, value.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }) else {
                throw PushConfigurationError("\(option) \"\(value)\" is not ten capital letters and digits")
            }
        }
        guard !topic.isEmpty, topic.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._".contains($0)) })
        else {
            throw PushConfigurationError("--apns-topic \"\(topic)\" is not a bundle id")
        }
        self.key = key
        self.keyID = keyID
        self.teamID = teamID
        self.topic = topic
    }

    public var description: String { "APNs key \(keyID) of team \(teamID) for \(topic)" }
}
