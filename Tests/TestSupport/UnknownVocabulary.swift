import GRDB

/// A user whose rows hold values the panel's enums do not know, as a newer backend or a hand
/// edit could leave them: the schema's CHECK constraints are set aside on this connection only.
public enum UnknownVocabulary {
    public static let userID: Int64 = 700_500

    public static func insertUser(path: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            try db.inTransaction {
                try db.execute(
                    sql: """
                        INSERT INTO users (id, email, password_hash, display_name, plan, status, created_at,
                                           last_active_at)
                        VALUES (:id, 'odd.vocabulary@odd.test', 'x', 'Odd Vocabulary', 'platinum', 'banned',
                                '2025-01-01 00:00:00', NULL);
                        INSERT INTO devices (user_id, platform, push_provider, push_token, push_permission, created_at,
                                             last_seen_at)
                        VALUES (:id, 'harmonyos', 'hms', 'odd-token-000111', 'provisional', '2025-01-01 00:00:00',
                                '2025-01-02 00:00:00'),
                               (:id, 7, 'fcm', NULL, 'granted', '2025-01-01 00:00:00', '2025-01-01 00:00:00');
                        INSERT INTO subscriptions (user_id, plan_type, status, store, price_cents, currency, started_at,
                                                   current_period_end)
                        VALUES (:id, 'monthly', 'paused', 'app_store', 299, 'EUR', '2025-01-01 00:00:00',
                                '2025-02-01 00:00:00');
                        INSERT INTO reminders (user_id, item_kind, item_id, days_before, scheduled_for, status)
                        VALUES (:id, 'pet', 1, 7, '2025-01-10 09:00:00', 'snoozed');
                        INSERT INTO activity_events (user_id, kind, platform, created_at)
                        VALUES (:id, 'login', 'web', '2025-01-03 00:00:00');
                        """, arguments: ["id": userID])
                return .commit
            }
        }
        try queue.close()
    }
}
