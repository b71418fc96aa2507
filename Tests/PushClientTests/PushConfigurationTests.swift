import Foundation
import Logging
import PushClients
import PushFakes
import Testing

@Suite("Push credentials are read once and every problem is one sentence", .timeLimit(.minutes(20)))
struct PushConfigurationTests {
    @Test func garbledFilesAndBadIDsAreOneLineErrors() async throws {
        let credentials = try await TestCredentials.make(tokenURI: "https://oauth2.example/token")
        defer { credentials.remove() }
        let garbled = credentials.folder.appendingPathComponent("garbled.json").path
        try Data("{\"type\": \"service_account\", \"private_key\": \"-----BEGIN PRIVATE KEY-----\\nnope\"}".utf8).write(
            to: URL(fileURLWithPath: garbled))
        let cases: [(PushConfiguration, String)] = [
            (
                PushConfiguration(fcmServiceAccount: "/no/such/file.json"),
                "--fcm-service-account \"/no/such/file.json\" cannot be read"
            ),
            (PushConfiguration(fcmServiceAccount: garbled), "has no valid project_id"),
            (PushConfiguration(fcmServiceAccount: credentials.apnsKeyPath), "is not a service-account JSON key file"),
            (
                PushConfiguration(
                    apnsKey: credentials.serviceAccountPath, apnsKeyID: TestCredentials.apnsKeyID,
                    apnsTeamID: TestCredentials.apnsTeamID, apnsTopic: TestCredentials.apnsTopic),
                "is not a P-256 private key"
            ),
            (
                PushConfiguration(
                    apnsKey: credentials.apnsKeyPath, apnsKeyID: "short", apnsTeamID: TestCredentials.apnsTeamID,
                    apnsTopic: TestCredentials.apnsTopic), "--apns-key-id \"short\""
            ),
            (PushConfiguration(apnsKey: credentials.apnsKeyPath), "APNs needs all four"),
            (
                PushConfiguration(fcmServiceAccount: credentials.serviceAccountPath, fcmBaseURL: "ftp://fcm"),
                "--fcm-base-url"
            ),
            (PushConfiguration(extraCAFile: credentials.apnsKeyPath), "--push-ca-file"),
        ]
        for (configuration, expected) in cases {
            do {
                _ = try await PushProviders.load(configuration, logger: Logger(label: "test"))
                Issue.record("accepted: \(expected)")
            } catch {
                #expect(error.description.contains(expected), "\(error.description)")
                #expect(!error.description.contains("\n"))
                #expect(!error.description.contains("PRIVATE KEY"), "a key must never be shown")
            }
        }
    }

    @Test func bothProvidersLoadAndSayWhenTheyLastAuthenticated() async throws {
        let credentials = try await TestCredentials.make(tokenURI: "https://oauth2.example/token")
        defer { credentials.remove() }
        let providers = try await PushProviders.load(
            PushConfiguration(
                fcmServiceAccount: credentials.serviceAccountPath, apnsKey: credentials.apnsKeyPath,
                apnsKeyID: TestCredentials.apnsKeyID, apnsTeamID: TestCredentials.apnsTeamID,
                apnsTopic: TestCredentials.apnsTopic, extraCAFile: credentials.caCertificatePath),
            logger: Logger(label: "test"))
        let status = await providers.status()
        #expect(status["fcm"] == PushProviders.Status(configured: true, lastAuthenticatedAt: nil))
        #expect(status["apns"] == PushProviders.Status(configured: true, lastAuthenticatedAt: nil))
        #expect(
            providers.fcm?.account.description
                == "service account \(TestCredentials.clientEmail) of project \(TestCredentials.projectID)")
        await providers.shutdown()
        #expect(await PushProviders.none.status()["fcm"]?.configured == false)
    }
}
