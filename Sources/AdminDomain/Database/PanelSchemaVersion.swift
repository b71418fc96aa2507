import GRDB

/// One applied step of `PanelMigrations` (`panel_schema_version`): the panel's own
/// bookkeeping, so that `grdb_migrations` and `user_version` stay the backend's.
struct PanelSchemaVersion: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "panel_schema_version"

    var version: Int

    enum Columns {
        static let version = Column(CodingKeys.version)
    }

    /// 0 before the first step.
    static func current(_ db: Database) throws -> Int {
        try select(max(Columns.version), as: Int.self).fetchOne(db) ?? 0
    }
}
