/// `users.plan`.
public enum Plan: String, VocabularyTerm {
    case free, premium
}

/// `users.status`.
public enum AccountStatus: String, VocabularyTerm {
    case active, suspended, deleted
}

/// `devices.platform` and `activity_events.platform`.
public enum Platform: String, VocabularyTerm {
    case ios, android
}

/// `devices.push_provider`.
public enum PushProvider: String, VocabularyTerm {
    case fcm, apns
}

/// `devices.push_permission`. `unknown` is the app's own word for "not asked yet".
public enum PushPermission: String, VocabularyTerm {
    case granted, denied, unknown
}

/// `reminders.item_kind`, and which of a user's items a page lists.
public enum ItemKind: String, VocabularyTerm {
    case food, document
}

/// `subscriptions.status`.
public enum SubscriptionStatus: String, VocabularyTerm {
    case active, cancelled, expired
    case pastDue = "past_due"
    case refunded
}

/// `reminders.status`.
public enum ReminderStatus: String, VocabularyTerm {
    case scheduled, sent, failed, cancelled
}

/// `documents.doc_type`.
public enum DocumentType: String, VocabularyTerm, Codable {
    case passport, visa
    case driversLicense = "drivers_license"
    case idCard = "id_card"
    case insurance, membership, custom
}

/// `food_items.source`: how the item was added in the app.
public enum FoodSource: String, VocabularyTerm {
    case manual, barcode, photo
}
