import AdminDomain
import ArgumentParser
import CampaignDispatch
import Foundation
import Logging
import PushClients

struct PushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push", abstract: "Push notifications.", subcommands: [PushTest.self])
}

/// One push to one device through the configured provider: to check credentials and a
/// device before a campaign. Audited; a dead token is recorded as a campaign would.
struct PushTest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Send one test push to one device and print what the provider said.",
        discussion: "Exits 0 when the provider accepted it, 1 otherwise.")

    @OptionGroup var database: DatabaseOption

    @Option(name: .customLong("device-id"), help: "The device's id (devices.id).")
    var deviceID: Int64

    @Flag(
        name: .customLong("dry-run"),
        help:
            """
            FCM validates without delivering; for APNs, which has no such mode, only the payload and the token are made.
            """
    )
    var dryRun = false

    @OptionGroup var push: PushOptions

    func run() async throws {
        // The outcome is the answer; the clients' routine notes would only crowd it.
        var logger = Logger(label: "push-test")
        logger.logLevel = .warning
        let providers = try await push.providers(logger: logger)
        let result: PushTestLog.Result
        do {
            result = try await send(through: providers)
        } catch {
            await providers.shutdown()
            throw error
        }
        await providers.shutdown()
        if !result.outcome.hasPrefix("accepted") { throw ExitCode(1) }
    }

    private func send(through providers: PushProviders) async throws -> PushTestLog.Result {
        try await reportingErrors {
            let log = PushTestLog(database: try await database.open())
            let device = try await log.device(id: deviceID)
            guard let provider = PushProviders.Provider(device.provider) else {
                throw fail(
                    "device #\(deviceID) is registered with provider \(device.provider), which the panel cannot send to"
                )
            }
            let platform = PushPlatform(device.platform)
            let message = PushMessage(
                deliveryID: "test-\(Int(Date().timeIntervalSince1970))-\(device.id)", token: device.token ?? "",
                platform: platform,
                title: "Test notification",
                body: "Sent from the Expiry Tracker admin panel to check that pushes arrive.",
                timeToLive: .seconds(3600), dryRun: dryRun)
            guard let outcome = await providers.send(message, via: provider) else {
                throw fail(
                    provider == .fcm
                        ? """
                        device #\(deviceID) is registered with FCM, and no FCM service account is configured \
                        (--fcm-service-account or FCM_SERVICE_ACCOUNT)
                        """
                        : """
                        device #\(deviceID) is registered with APNs, and no APNs key is configured (--apns-key, \
                        --apns-key-id, --apns-team-id, --apns-topic)
                        """
                )
            }
            let deadReason: String? = if case .deadToken(let reason) = outcome { reason } else { nil }
            let result = PushTestLog.Result(
                provider: provider.rawValue, dryRun: dryRun, outcome: outcome.sentence, deadReason: deadReason)
            try await log.record(result, for: device, by: .commandLine)
            say(
                """
                device #\(device.id) (\(device.platform) via \(provider.rawValue), token \
                \(device.maskedToken ?? "")): \(outcome.sentence)
                """
            )
            return result
        }
    }
}
