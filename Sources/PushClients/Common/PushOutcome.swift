/// What became of one send, the same for both providers, so that the dispatcher decides once.
public enum PushOutcome: Sendable, Equatable {
    /// The provider took the message (a 200): not yet delivered; receipts tell that.
    case accepted(messageID: String)
    /// The token will never work again: FCM `UNREGISTERED` or `INVALID_ARGUMENT` naming the
    /// token, APNs 410 `Unregistered` or 400 `BadDeviceToken`.
    case deadToken(reason: String)
    /// Try again after `after`: the provider was busy or down, or was never reached.
    case retryLater(reason: String, after: Duration)
    /// Our credentials or configuration were refused. Never the device's fault: a campaign
    /// stops on it rather than mark every token dead.
    case credentialsProblem(reason: String)
    /// Refused for this message and not worth repeating: payload too large, another 4xx.
    case failed(reason: String)
    /// The request was written and then the connection dropped or timed out: it may have been
    /// delivered, so it is never sent again.
    case unknown(reason: String)

    /// A short name for metrics and logs.
    public var kind: String {
        switch self {
        case .accepted: "accepted"
        case .deadToken: "dead_token"
        case .retryLater: "retry_later"
        case .credentialsProblem: "credentials_problem"
        case .failed: "failed"
        case .unknown: "unknown"
        }
    }

    /// One line for a person: the command line's answer and the audit row's detail.
    public var sentence: String {
        switch self {
        case .accepted(let id): "accepted (provider's id \(id))"
        case .deadToken(let reason): "dead token: \(reason)"
        case .retryLater(let reason, let after): "retry later (in \(after.components.seconds) s): \(reason)"
        case .credentialsProblem(let reason): "credentials problem: \(reason)"
        case .failed(let reason): "failed: \(reason)"
        case .unknown(let reason): "unknown, may have been delivered: \(reason)"
        }
    }
}
