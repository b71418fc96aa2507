import GRDB

/// An app user test sends may go to (`panel_test_users`), and who added them when.
struct PanelTestUser: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "panel_test_users"

    var userID: Int64
    var addedBy: Int64?
    var addedAt: String

    enum Columns {
        static let userID = Column(CodingKeys.userID)
        static let addedBy = Column(CodingKeys.addedBy)
        static let addedAt = Column(CodingKeys.addedAt)
    }

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case addedBy = "added_by"
        case addedAt = "added_at"
    }
}
