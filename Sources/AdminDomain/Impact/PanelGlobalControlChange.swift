import GRDB

/// One change of the global control group's share (`panel_global_control`): the latest row
/// is in force from its `tookEffectAt`.
struct PanelGlobalControlChange: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "panel_global_control"

    var id: Int64?
    var percent: Int
    var tookEffectAt: PanelTime
    var adminID: Int64?
    /// Who made it, as the audit log names them ("cli" at the command line).
    var actorEmail: String?

    enum CodingKeys: String, CodingKey, ColumnExpression {
        case id
        case percent
        case tookEffectAt = "took_effect_at"
        case adminID = "admin_id"
        case actorEmail = "actor_email"
    }

    typealias Columns = CodingKeys
}
