import GRDB

/// An account's TOTP key (`panel_two_factor`): unconfirmed while enrolling, and the last
/// step accepted, so that a code is good once.
struct PanelTwoFactor: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "panel_two_factor"

    var adminID: Int64
    var secret: String
    var confirmedAt: PanelTime?
    var lastStep: Int64?

    /// The columns are the coding keys: each named once, in Swift and in SQL.
    enum CodingKeys: String, CodingKey, ColumnExpression {
        case secret
        case adminID = "admin_id"
        case confirmedAt = "confirmed_at"
        case lastStep = "last_step"
    }

    typealias Columns = CodingKeys
}

extension DerivableRequest<PanelTwoFactor> {
    func confirmed(_ confirmed: Bool) -> Self {
        filter(confirmed ? PanelTwoFactor.Columns.confirmedAt != nil : PanelTwoFactor.Columns.confirmedAt == nil)
    }
}
