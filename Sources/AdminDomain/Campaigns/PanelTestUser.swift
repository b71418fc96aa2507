import GRDB

/// An app user test sends may go to (`panel_test_users`), and who added them when.
struct PanelTestUser: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "panel_test_users"

    var userID: Int64
    var addedBy: Int64?
    var addedAt: PanelTime

    /// The columns are the coding keys: each named once, in Swift and in SQL.
    enum CodingKeys: String, CodingKey, ColumnExpression {
        case userID = "user_id"
        case addedBy = "added_by"
        case addedAt = "added_at"
    }

    typealias Columns = CodingKeys
}
