/// `panel_campaigns.status`. Which status may follow which is `CampaignTransition`'s to say.
public enum CampaignStatus: String, VocabularyTerm {
    case draft, materialising, sending, paused, cancelled, finished

    /// Nothing more can happen to a campaign in these.
    public var isEnded: Bool { self == .cancelled || self == .finished }
}

/// `panel_campaigns.kind`: a campaign staff launch, or a journey's row (its message, audience
/// and holdout; its rules in `panel_journeys`), which shares the outbox and the dispatcher.
public enum CampaignKind: String, VocabularyTerm {
    case campaign, journey
}

/// `panel_deliveries.state`: queued until claimed; `sending` is committed before the request
/// goes out, so one found at start was in flight at a crash and becomes `unknown`. `capped`:
/// over the frequency cap when claimed, never sent. `excluded`: a rule of the audience no
/// longer held when it was due (account, push switch, consent, permission, token, provider),
/// never sent; its `detail` says which.
public enum DeliveryState: String, VocabularyTerm {
    case queued, sending, accepted, retry, failed, dead, unknown, cancelled, capped, excluded

    /// Still to be sent (now or later).
    public static let waiting: [DeliveryState] = [.queued, .retry]
    /// A request went out and may have reached the device: what the frequency cap counts and
    /// what a receipt may confirm.
    public static let wentOut: [DeliveryState] = [.accepted, .sending, .unknown]
    /// Not settled: a campaign with none of these left is finished.
    public static let open: [DeliveryState] = [.queued, .retry, .sending]

    /// Where a claimed row may go, and where a waiting one may: every other move is refused.
    public var next: Set<DeliveryState> {
        switch self {
        case .queued, .retry: [.sending, .capped, .excluded, .failed, .cancelled]
        // A credentials problem puts it back, unsent: it waits for the campaign's resume.
        case .sending: [.accepted, .retry, .failed, .dead, .unknown, .queued]
        case .accepted, .failed, .dead, .unknown, .cancelled, .capped, .excluded: []
        }
    }
}
