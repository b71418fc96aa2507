import Crypto
import Foundation
import SwiftASN1
import X509
import _CryptoExtras

/// Keys and certificates made on the spot for a fake provider, written to a fresh folder:
/// an RSA service-account JSON (whose `token_uri` points at the fake), an APNs `.p8`, and a
/// CA with a server certificate for 127.0.0.1 and localhost. Nothing here is ever committed.
public struct TestCredentials: Sendable {
    public static let projectID = "expiry-tracker-test"
    public static let clientEmail = "panel-push@expiry-tracker-test.iam.gserviceaccount.com"
    public static let apnsKeyID = "ABC123DEFG"
    public static let apnsTeamID = "TEAM123456"
    public static let apnsTopic = "com.example.expirytracker"

    public let folder: URL
    public let serviceAccountPath: String
    public let apnsKeyPath: String
    public let caCertificatePath: String
    /// The public halves the fake checks signatures with.
    public let rsaPublicKeyPEM: String
    public let apnsPublicKey: P256.Signing.PublicKey
    /// The fake's TLS identity.
    public let serverCertificatePEM: String
    public let serverKeyPEM: String

    /// - Parameters:
    ///   - tokenURI: the OAuth endpoint written into the service-account file.
    ///   - freshServiceAccountKey: a service-account key of its own, for a stranger whose
    ///     signatures the fake must refuse; otherwise this process's one key (each fake trusts
    ///     only the credentials it was given, so sharing the key costs no test anything).
    public static func make(
        tokenURI: String, in parent: URL = FileManager.default.temporaryDirectory,
        freshServiceAccountKey: Bool = false
    ) async throws -> TestCredentials {
        let folder = parent.appendingPathComponent("push-credentials-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)

        let rsa = try await freshServiceAccountKey ? RSAKeys.generate() : RSAKeys.shared.value
        let account: [String: String] = [
            "type": "service_account",
            "project_id": projectID,
            "private_key_id": "0123456789abcdef",
            "private_key": rsa.pkcs8PEMRepresentation,
            "client_email": clientEmail,
            "client_id": "100000000000000000001",
            "auth_uri": "https://accounts.google.com/o/oauth2/auth",
            "token_uri": tokenURI,
        ]
        let serviceAccountPath = folder.appendingPathComponent("service-account.json").path
        try JSONSerialization.data(withJSONObject: account, options: [.sortedKeys]).write(
            to: URL(fileURLWithPath: serviceAccountPath))

        let p8 = P256.Signing.PrivateKey()
        let apnsKeyPath = folder.appendingPathComponent("AuthKey_\(apnsKeyID).p8").path
        try Data(p8.pemRepresentation.utf8).write(to: URL(fileURLWithPath: apnsKeyPath))

        let (caPEM, serverPEM, serverKey) = try makeCertificates()
        let caCertificatePath = folder.appendingPathComponent("ca.pem").path
        try Data(caPEM.utf8).write(to: URL(fileURLWithPath: caCertificatePath))

        return TestCredentials(
            folder: folder, serviceAccountPath: serviceAccountPath, apnsKeyPath: apnsKeyPath,
            caCertificatePath: caCertificatePath, rsaPublicKeyPEM: rsa.publicKey.pemRepresentation,
            apnsPublicKey: p8.publicKey, serverCertificatePEM: serverPEM, serverKeyPEM: serverKey)
    }

    /// An RSA-2048 key takes seconds to make in a debug build, all of it on one thread: made
    /// on a thread of its own, off Swift's cooperative pool, and once per process.
    private enum RSAKeys {
        static let shared = Task { try await generate() }

        static func generate() async throws -> _RSA.Signing.PrivateKey {
            try await withCheckedThrowingContinuation { continuation in
                Thread { continuation.resume(with: Result { try _RSA.Signing.PrivateKey(keySize: .bits2048) }) }.start()
            }
        }
    }

    /// The same keys with another OAuth address, for a fake whose port was not known yet.
    public func rewritingTokenURI(_ tokenURI: String) throws -> TestCredentials {
        let url = URL(fileURLWithPath: serviceAccountPath)
        guard var account = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: String] else {
            return self
        }
        account["token_uri"] = tokenURI
        try JSONSerialization.data(withJSONObject: account, options: [.sortedKeys]).write(to: url)
        return self
    }

    public func remove() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A CA (self-signed) and a server certificate it signed, valid for a day.
    private static func makeCertificates() throws -> (ca: String, server: String, serverKey: String) {
        let now = Date()
        let caKey = P256.Signing.PrivateKey()
        let caName = try DistinguishedName { CommonName("Expiry Tracker push test CA") }
        let ca = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(caKey.publicKey),
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(86_400),
            issuer: caName, subject: caName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true))
                SubjectKeyIdentifier(hash: .init(caKey.publicKey))
            },
            issuerPrivateKey: .init(caKey))
        let serverKey = P256.Signing.PrivateKey()
        let server = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(serverKey.publicKey),
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(86_400),
            issuer: caName, subject: try DistinguishedName { CommonName("localhost") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames([
                    .dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
                ])
            },
            issuerPrivateKey: .init(caKey))
        return (try ca.serializeAsPEM().pemString, try server.serializeAsPEM().pemString, serverKey.pemRepresentation)
    }
}
