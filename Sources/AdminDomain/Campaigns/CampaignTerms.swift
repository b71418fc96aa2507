/// `panel_campaigns.status`.
public enum CampaignStatus: String, VocabularyTerm {
    case draft, materialising, sending, paused, cancelled, finished
}

/// `panel_deliveries.state`: queued until claimed; `sending` is committed before the request
/// goes out, so one found at start was in flight at a crash and becomes `unknown`.
public enum DeliveryState: String, VocabularyTerm {
    case queued, sending, accepted, retry, failed, dead, unknown, cancelled
}
