import AdminDomain
import Foundation
import GRDB

/// Rows a test adds as the backend would (and as a hostile backend might): sign-ups,
/// events and purchases one second either side of midnight and of Monday, unreadable
/// times and values, and a campaign's deliveries and receipts.
enum BoundaryRows {
    /// Without foreign keys: a hostile backend's rows need not point anywhere.
    static func queue(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    static func add(to path: String, now: Date) async throws {
        try await queue(path).write { db in
            func user(_ email: String, created: String, lastActive: String?, plan: String = "free") throws -> Int64 {
                try db.execute(
                    sql: """
                        INSERT INTO users (email, password_hash, plan, created_at, last_active_at)
                          VALUES (?, 'x', ?, ?, ?)
                        """, arguments: [email, plan, created, lastActive])
                return db.lastInsertedRowID
            }
            let late = try user("late@example.com", created: "2026-11-22 23:59:59", lastActive: "2026-11-23 00:00:00")
            let early = try user("early@example.com", created: "2026-11-23 00:00:00", lastActive: nil, plan: "premium")
            let garbled = try user("garbled@example.com", created: "garbage", lastActive: "never")
            for (userID, created) in [
                (late, "2026-11-23 00:00:00"), (late, "2026-11-22 23:59:59"), (late, "soon"),
                (garbled, "2026-11-20 10:00:00"),
            ] {
                try db.execute(
                    sql: "INSERT INTO activity_events (user_id, kind, created_at) VALUES (?, 'login', ?)",
                    arguments: [userID, created])
            }
            try db.execute(
                sql:
                    "INSERT INTO activity_events (user_id, kind, created_at) "
                    + "VALUES ('abc', 'login', '2026-11-22 10:00:00')"
            )
            try db.execute(
                sql: """
                    INSERT INTO subscriptions
                      (user_id, plan_type, status, store, price_cents, currency, started_at, current_period_end)
                    VALUES
                      (?, 'monthly', 'active', 'app_store', 499, 'EUR', '2026-11-23 00:00:00', '2026-12-23 00:00:00'),
                      (?, 'yearly', 'active', 'play_store', 4999, 'USD', '2026-11-22 23:59:59', '2027-11-22 23:59:59'),
                      (?, 'monthly', 'active', 'web', 499, 'eur', '2026-11-01 00:00:00', '2026-12-01 00:00:00'),
                      (?, 'monthly', 'active', 'web', 'lots', 'EUR', '2026-11-01 00:00:00', '2026-12-01 00:00:00'),
                      (?, 'monthly', 'refunded', 'web', 499, 'EUR', 'someday', '2026-12-01 00:00:00')
                    """, arguments: [late, early, garbled, garbled, late])
            for (created, deleted, expiry, category) in [
                ("yesterday", nil, "soon", "<b>Dairy</b>"),
                ("2026-11-22 23:59:59", "2026-11-10 00:00:00", "2026-11-20", "Dairy"),
                ("2026-11-23 00:00:00", nil, "2026-11-23", "A category nobody else has"),
                ("2026-11-16 00:00:00", nil, "2026-11-15", "Meat"),
            ] as [(String, String?, String, String)] {
                try db.execute(
                    sql: """
                        INSERT INTO food_items
                          (user_id, name, category, storage, expiry_date, source, created_at, updated_at, deleted_at)
                        VALUES (?, 'x', ?, NULL, ?, 'barcode', ?, ?, ?)
                        """, arguments: [late, category, expiry, created, created, deleted])
            }
            try db.execute(
                sql: """
                    INSERT INTO documents (user_id, doc_type, title, expiry_date, created_at, updated_at) VALUES
                      (?, 'custom', 'x', '2027-01-01', '2026-11-23 00:00:00', '2026-11-23 00:00:00'),
                      ('abc', 'visa', 'x', 'never', 'never', 'never')
                    """, arguments: [early])
            try db.execute(
                sql: """
                    INSERT INTO devices (user_id, platform, push_provider, push_permission, created_at, last_seen_at)
                    VALUES (?, 'ios', 'apns', 'granted', '2026-11-23 00:00:00', '2026-11-23 00:00:00')
                    """, arguments: [late])
            try db.execute(
                sql: """
                    INSERT INTO reminders (user_id, item_kind, item_id, days_before, scheduled_for, status) VALUES
                      (?, 'food', 1, 1, '2026-11-22 09:00:00', 'failed'),
                      (?, 'food', 1, 1, '2026-11-22 09:00:00', 'sent')
                    """, arguments: [late, late])
            try db.execute(
                sql: """
                    INSERT INTO panel_campaigns (title, body, ttl_seconds, segment, status, created_at)
                      VALUES ('t', 'b', 60, '{}', 'finished', '2026-11-20 10:00:00')
                    """)
            let campaign = db.lastInsertedRowID
            for (device, state, updated) in [
                (1, "accepted", "2026-11-22 23:59:59"), (2, "accepted", "2026-11-23 00:00:00"),
                (3, "failed", "2026-11-22 10:00:00"), (4, "accepted", "bad time"),
            ] {
                try db.execute(
                    sql: """
                        INSERT INTO panel_deliveries (campaign_id, device_id, user_id, state, due_at, updated_at)
                          VALUES (?, ?, ?, ?, ?, ?)
                        """, arguments: [campaign, device, late, state, updated, updated])
            }
            for (delivery, event, created) in [
                ("1", "received", "2026-11-22 23:59:59"), ("1", "received", "2026-11-22 23:59:59"),
                ("1", "opened", "2026-11-23 00:00:00"), ("2", "received", "2026-11-23 00:00:00"),
                ("not-ours", "received", "2026-11-21 08:00:00"),
            ] {
                try db.execute(
                    sql: "INSERT INTO push_receipts (delivery_id, event, created_at) VALUES (?, ?, ?)",
                    arguments: [delivery, event, created])
            }
        }
    }

    /// What arrives between two refreshes: new users, their events, items and a purchase.
    static func addNewActivity(to path: String, at now: Date) async throws {
        let time = SQLiteTime.string(now.addingTimeInterval(-5))
        try await DatabaseQueue(path: path).write { db in
            let oldUser = try Int64.fetchOne(db, sql: "SELECT MIN(id) FROM users WHERE status <> 'deleted'")!
            for index in 0..<5 {
                try db.execute(
                    sql: "INSERT INTO users (email, password_hash, created_at, last_active_at) VALUES (?, 'x', ?, ?)",
                    arguments: ["new\(index)@example.com", time, time])
                let id = db.lastInsertedRowID
                try db.execute(
                    sql:
                        "INSERT INTO activity_events (user_id, kind, created_at) "
                        + "VALUES (?, 'sign_up', ?), (?, 'login', ?)",
                    arguments: [id, time, oldUser, time])
                try db.execute(
                    sql: """
                        INSERT INTO food_items (user_id, name, expiry_date, source, created_at, updated_at)
                          VALUES (?, 'milk', '2026-11-30', 'photo', ?, ?)
                        """, arguments: [id, time, time])
                try db.execute(
                    sql: """
                        INSERT INTO documents (user_id, doc_type, title, expiry_date, created_at, updated_at)
                          VALUES (?, 'passport', 'p', '2030-01-01', ?, ?)
                        """, arguments: [id, time, time])
            }
            try db.execute(
                sql: """
                    INSERT INTO subscriptions
                      (user_id, plan_type, status, store, price_cents, currency, started_at, current_period_end)
                    VALUES (?, 'monthly', 'active', 'web', 299, 'GBP', ?, '2026-12-23 00:00:00')
                    """, arguments: [oldUser, time])
        }
    }
}
