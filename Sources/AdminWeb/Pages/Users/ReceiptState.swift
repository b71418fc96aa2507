import AdminDomain

/// What a campaign push's device said back, from the app's receipts (`receipt` 0, 1, 2).
enum ReceiptState: String, CaseIterable, Sendable {
    case nothing, received, opened

    init(_ push: CampaignPushOfUser) {
        self = push.receipt >= 2 ? .opened : push.receipt == 1 ? .received : .nothing
    }
}
