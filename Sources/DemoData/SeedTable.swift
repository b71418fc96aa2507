/// The app tables the generator fills, with the columns it writes.
enum SeedTable: Int, CaseIterable {
    case households, users, subscriptions, devices, settings, food, documents, reminders, events, receipts

    var name: String {
        switch self {
        case .households: "households"
        case .users: "users"
        case .subscriptions: "subscriptions"
        case .devices: "devices"
        case .settings: "notification_settings"
        case .food: "food_items"
        case .documents: "documents"
        case .reminders: "reminders"
        case .events: "activity_events"
        case .receipts: "push_receipts"
        }
    }

    var columns: [String] {
        switch self {
        case .households: ["id", "name", "created_at"]
        case .users:
            [
                "id", "email", "password_hash", "display_name", "plan", "status", "timezone", "locale",
                "household_id", "created_at", "last_active_at", "email_verified_at",
            ]
        case .subscriptions:
            [
                "user_id", "plan_type", "status", "store", "price_cents", "currency", "started_at",
                "current_period_end", "cancelled_at",
            ]
        case .devices:
            [
                "id", "user_id", "platform", "push_provider", "push_token", "push_permission", "app_version",
                "os_version", "created_at", "last_seen_at",
            ]
        case .settings:
            [
                "user_id", "push_enabled", "food_reminders", "document_reminders", "marketing_opt_in",
                "reminder_days", "daily_time", "quiet_start", "quiet_end",
            ]
        case .food:
            [
                "user_id", "name", "category", "storage", "quantity", "expiry_date", "photo_path", "photo_bytes",
                "source", "created_at", "updated_at", "consumed_at", "deleted_at",
            ]
        case .documents:
            [
                "user_id", "doc_type", "custom_type", "title", "number", "expiry_date", "created_at",
                "updated_at", "deleted_at",
            ]
        case .reminders:
            ["user_id", "item_kind", "item_id", "days_before", "scheduled_for", "status", "sent_at", "opened_at"]
        case .events: ["user_id", "kind", "detail", "platform", "created_at"]
        case .receipts: ["delivery_id", "device_id", "event", "created_at"]
        }
    }
}

/// Rows generated for a run of users, one flat value list per table, on their way from the
/// generating thread to the inserting one.
struct RowBatch: Sendable {
    var values: [[SeedValue]] = Array(repeating: [], count: SeedTable.allCases.count)
    var users = 0

    mutating func append(_ table: SeedTable, _ row: [SeedValue]) {
        values[table.rawValue].append(contentsOf: row)
    }
}
