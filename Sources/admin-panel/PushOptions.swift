import ArgumentParser
import Foundation
import Logging
import PushClients

/// Where pushes go and as whom. Each option has an environment-variable twin (the option
/// wins), so credentials need not sit in a shell history. Read once at start.
struct PushOptions: ParsableArguments {
    @Option(
        name: .customLong("fcm-service-account"),
        help: "Google service-account JSON key for FCM ($FCM_SERVICE_ACCOUNT).")
    var fcmServiceAccount: String?

    @Option(
        name: .customLong("fcm-base-url"), help: "FCM's address ($FCM_BASE_URL; default \(FCMClient.defaultBaseURL)).")
    var fcmBaseURL: String?

    @Option(name: .customLong("apns-key"), help: "APNs signing key, the .p8 file ($APNS_KEY).")
    var apnsKey: String?

    @Option(name: .customLong("apns-key-id"), help: "The APNs key's id, ten characters ($APNS_KEY_ID).")
    var apnsKeyID: String?

    @Option(name: .customLong("apns-team-id"), help: "The Apple developer team id ($APNS_TEAM_ID).")
    var apnsTeamID: String?

    @Option(name: .customLong("apns-topic"), help: "The app's bundle id ($APNS_TOPIC).")
    var apnsTopic: String?

    @Option(
        name: .customLong("apns-base-url"),
        help: "APNs's address ($APNS_BASE_URL; default \(APNsClient.productionURL)).")
    var apnsBaseURL: String?

    @Flag(name: .customLong("apns-sandbox"), help: "Use APNs's sandbox, \(APNsClient.sandboxURL) ($APNS_SANDBOX=1).")
    var apnsSandbox = false

    @Option(
        name: .customLong("push-ca-file"),
        help: "An extra trusted CA certificate (PEM) for the providers' servers, for test servers ($PUSH_CA_FILE).")
    var pushCAFile: String?

    func configuration(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> PushConfiguration
    {
        func value(_ option: String?, _ name: String) -> String? {
            if let option { return option }
            guard let text = environment[name], !text.isEmpty else { return nil }
            return text
        }
        var sandbox = apnsSandbox
        if !sandbox, let text = environment["APNS_SANDBOX"], !text.isEmpty {
            switch text.lowercased() {
            case "1", "true", "yes": sandbox = true
            case "0", "false", "no": sandbox = false
            default: throw ValidationError("APNS_SANDBOX is \"\(text)\"; it must be 1 or 0")
            }
        }
        let base = value(apnsBaseURL, "APNS_BASE_URL")
        if sandbox, let base {
            throw ValidationError("give --apns-sandbox or --apns-base-url (\(base)), not both")
        }
        return PushConfiguration(
            fcmServiceAccount: value(fcmServiceAccount, "FCM_SERVICE_ACCOUNT"),
            fcmBaseURL: value(fcmBaseURL, "FCM_BASE_URL") ?? FCMClient.defaultBaseURL,
            apnsKey: value(apnsKey, "APNS_KEY"), apnsKeyID: value(apnsKeyID, "APNS_KEY_ID"),
            apnsTeamID: value(apnsTeamID, "APNS_TEAM_ID"), apnsTopic: value(apnsTopic, "APNS_TOPIC"),
            apnsBaseURL: base ?? (sandbox ? APNsClient.sandboxURL : APNsClient.productionURL),
            extraCAFile: value(pushCAFile, "PUSH_CA_FILE"))
    }

    /// The clients, or one line naming the option that is wrong.
    func providers(logger: Logger) async throws -> PushProviders {
        do {
            return try await PushProviders.load(try configuration(), logger: logger)
        } catch let error as PushConfigurationError {
            throw fail(error.description)
        } catch let error as ValidationError {
            throw fail(error.message)
        }
    }
}
