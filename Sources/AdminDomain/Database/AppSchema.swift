/// The mobile backend's schema, vendored byte for byte from `shared/app-schema.sql`.
public enum AppSchema {
    /// The tables the backend owns; the panel reads them and never writes them.
    public static let tableNames = [
        "households", "users", "subscriptions", "devices", "notification_settings",
        "food_items", "documents", "reminders", "activity_events", "push_receipts",
    ]
}
