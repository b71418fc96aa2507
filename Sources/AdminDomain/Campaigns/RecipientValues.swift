import Foundation
import GRDB

/// What a campaign's placeholders are filled with for one user: read from the app's tables
/// when a batch is sent, and for the composer's preview.
public struct RecipientValues: Sendable, Equatable {
    public let userID: Int64
    public let locale: String
    /// By placeholder name; a missing or empty value gets the template's fallback.
    public let values: [String: String]

    /// Items (food neither eaten nor deleted, documents not deleted) expiring within this
    /// many days count for `expiring_count` and `first_expiring_item`.
    public static let expiringWithinDays = 7
    /// Documents need more notice: those expiring within this many days fill the documents
    /// placeholders.
    public static let documentsWithinDays = 30

    public static func load(_ userIDs: [Int64], in database: PanelDatabase, now: Date = Date()) async throws -> [Int64:
        RecipientValues]
    {
        guard !userIDs.isEmpty else { return [:] }
        let today = SQLiteTime.dayString(daysSinceEpoch: Int64((now.timeIntervalSince1970 / 86_400).rounded(.down)))
        return try await database.read { db in
            try fetch(userIDs, today: today, in: db)
        }
    }

    static func fetch(_ userIDs: [Int64], today: String, in db: Database) throws -> [Int64: RecipientValues] {
        var found: [Int64: RecipientValues] = [:]
        // The app's text columns are read as text whatever a hostile row stored in them.
        let statement = try db.cachedStatement(
            sql: """
                SELECT CAST(u.display_name AS TEXT) AS display_name,
                       CAST(u.plan AS TEXT) AS plan,
                       CAST(u.locale AS TEXT) AS locale,
                       (SELECT COUNT(*) FROM food_items f INDEXED BY food_items_user
                        WHERE f.user_id = u.id
                          AND f.deleted_at IS NULL
                          AND f.consumed_at IS NULL
                          AND f.expiry_date BETWEEN :today AND date(:today, :window))
                       + (SELECT COUNT(*) FROM documents o INDEXED BY documents_user
                          WHERE o.user_id = u.id
                            AND o.deleted_at IS NULL
                            AND o.expiry_date BETWEEN :today AND date(:today, :window)) AS expiring_count,
                       (SELECT CAST(name AS TEXT) || char(31) || CAST(expiry_date AS TEXT) FROM (
                          SELECT f.name AS name, f.expiry_date AS expiry_date
                          FROM food_items f INDEXED BY food_items_user
                          WHERE f.user_id = u.id AND f.deleted_at IS NULL AND f.consumed_at IS NULL
                            AND f.expiry_date BETWEEN :today AND date(:today, :window)
                          UNION ALL
                          SELECT o.title, o.expiry_date FROM documents o INDEXED BY documents_user
                          WHERE o.user_id = u.id AND o.deleted_at IS NULL
                            AND o.expiry_date BETWEEN :today AND date(:today, :window))
                        ORDER BY expiry_date LIMIT 1) AS first_expiring,
                       (SELECT COUNT(*) FROM documents o INDEXED BY documents_user
                        WHERE o.user_id = u.id
                          AND o.deleted_at IS NULL
                          AND o.expiry_date BETWEEN :today AND date(:today, :documentWindow)) AS document_count,
                       (SELECT CAST(o.title AS TEXT) || char(31) || CAST(o.expiry_date AS TEXT)
                        FROM documents o INDEXED BY documents_user
                        WHERE o.user_id = u.id AND o.deleted_at IS NULL
                          AND o.expiry_date BETWEEN :today AND date(:today, :documentWindow)
                        ORDER BY o.expiry_date LIMIT 1) AS first_document
                FROM users u WHERE u.id = :id
                """)
        let todayDay = Day(today)
        for id in Set(userIDs) {
            guard
                let row = try Row.fetchOne(
                    statement,
                    arguments: [
                        "id": id, "today": today, "window": "+\(expiringWithinDays) days",
                        "documentWindow": "+\(documentsWithinDays) days",
                    ])
            else { continue }
            var values: [String: String] = [:]
            values["display_name"] = row["display_name"]
            values["plan"] = row["plan"]
            // Items and documents alike: how many, the first one's name and its days left.
            for (count, first, keys) in [
                (
                    row["expiring_count"] as Int, row["first_expiring"] as String?,
                    ("expiring_count", "first_expiring_item", "days_left")
                ),
                (
                    row["document_count"] as Int, row["first_document"] as String?,
                    ("expiring_documents", "first_expiring_document", "document_days_left")
                ),
            ] {
                if count > 0 { values[keys.0] = String(count) }
                // "name<US>YYYY-MM-DD", as the query joins them.
                if let parts = first?.split(separator: "\u{1F}", omittingEmptySubsequences: false), parts.count == 2 {
                    values[keys.1] = String(parts[0])
                    if let day = Day(String(parts[1])), let todayDay {
                        values[keys.2] = String(day.daysSinceEpoch - todayDay.daysSinceEpoch)
                    }
                }
            }
            found[id] = RecipientValues(userID: id, locale: (row["locale"] as String?) ?? "en", values: values)
        }
        return found
    }
}
