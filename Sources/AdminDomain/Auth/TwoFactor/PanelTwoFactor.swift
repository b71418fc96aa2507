import GRDB

/// An account's TOTP key (`panel_two_factor`): unconfirmed while enrolling, and the last
/// step accepted, so that a code is good once.
struct PanelTwoFactor: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "panel_two_factor"

    var adminID: Int64
    var secret: String
    var confirmedAt: String?
    var lastStep: Int64?

    enum Columns {
        static let adminID = Column(CodingKeys.adminID)
        static let secret = Column(CodingKeys.secret)
        static let confirmedAt = Column(CodingKeys.confirmedAt)
        static let lastStep = Column(CodingKeys.lastStep)
    }

    enum CodingKeys: String, CodingKey {
        case secret
        case adminID = "admin_id"
        case confirmedAt = "confirmed_at"
        case lastStep = "last_step"
    }
}

extension DerivableRequest<PanelTwoFactor> {
    func confirmed(_ confirmed: Bool) -> Self {
        filter(confirmed ? PanelTwoFactor.Columns.confirmedAt != nil : PanelTwoFactor.Columns.confirmedAt == nil)
    }
}
