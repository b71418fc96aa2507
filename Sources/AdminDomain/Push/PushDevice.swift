import GRDB

/// One device as a push needs it: where its token goes and whether it may get one.
public struct PushDevice: Sendable, Equatable {
    public let id: Int64
    public let userID: Int64
    public let platform: Stored<Platform>
    public let provider: Stored<PushProvider>
    /// Never shown in full: `maskedToken` is for people.
    public let token: String?
    public let permission: Stored<PushPermission>

    public var maskedToken: String? { Masked.tail(token, keep: 6) }

    static func fetch(id: Int64, in db: Database) throws -> PushDevice? {
        try Row.fetchOne(
            db,
            sql: """
                SELECT id, user_id, platform, push_provider, push_token, push_permission FROM devices WHERE id = ?
                """, arguments: [id]
        ).map { row in
            PushDevice(
                id: try row.decode(forColumn: "id"), userID: try row.decode(forColumn: "user_id"),
                platform: try row.decode(forColumn: "platform"), provider: try row.decode(forColumn: "push_provider"),
                token: try row.decode(forColumn: "push_token"), permission: try row.decode(forColumn: "push_permission")
            )
        }
    }
}
