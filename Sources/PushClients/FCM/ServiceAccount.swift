import Foundation
import JWTKit

/// A Google service account's JSON key file: who we are to Google's OAuth server.
/// The private key stays inside; `description` never shows it.
public struct ServiceAccount: Sendable, CustomStringConvertible {
    public let projectID: String
    public let clientEmail: String
    public let tokenURI: String
    let privateKey: Insecure.RSA.PrivateKey

    private struct File: Decodable {
        let type: String?
        let projectID: String?
        let privateKey: String?
        let clientEmail: String?
        let tokenURI: String?

        enum CodingKeys: String, CodingKey {
            case type
            case projectID = "project_id"
            case privateKey = "private_key"
            case clientEmail = "client_email"
            case tokenURI = "token_uri"
        }
    }

    /// Reads and checks the file; every problem is one sentence naming the file, never its content.
    public init(contentsOf path: String) throws(PushConfigurationError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PushConfigurationError("--fcm-service-account \"\(path)\" cannot be read")
        }
        try self.init(json: data, source: path)
    }

    public init(json data: Data, source: String) throws(PushConfigurationError) {
        let problem = { (what: String) in PushConfigurationError("the FCM service account \"\(source)\" \(what)") }
        guard let file = try? JSONDecoder().decode(File.self, from: data) else {
            throw problem("is not a service-account JSON key file")
        }
        if let type = file.type, type != "service_account" {
            throw problem("is of type \"\(type)\", not \"service_account\"")
        }
        guard let projectID = file.projectID, !projectID.isEmpty,
            projectID.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ":" || $0 == ".") })
        else { throw problem("has no valid project_id") }
        guard let email = file.clientEmail, email.contains("@") else { throw problem("has no client_email") }
        guard let tokenURI = file.tokenURI, let url = URL(string: tokenURI),
            url.scheme == "https" || url.scheme == "http", url.host != nil
        else { throw problem("has no usable token_uri") }
        guard let pem = file.privateKey, let key = try? Insecure.RSA.PrivateKey(pem: pem) else {
            throw problem("has no readable RSA private_key")
        }
        self.projectID = projectID
        clientEmail = email
        self.tokenURI = tokenURI
        privateKey = key
    }

    public var description: String { "service account \(clientEmail) of project \(projectID)" }
}

/// A credential or setting that cannot be used: one line at start, naming the option.
public struct PushConfigurationError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
