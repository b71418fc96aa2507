import AdminDomain
import HTMLRender

/// Which badge each status gets: one mapping per status type, here and nowhere else. The
/// words are the panel's own (lower case, as the lists and filters say them); docs/architecture.md
/// ("Statuses") has the same table in words, and `StatusBadges` checks it value by value.
extension StatusBadge {
    /// A stored value: a known one by its type's mapping; one this panel does not know is a
    /// neutral "unknown (value)", never guessed into another.
    init<Term: BadgeStatus & VocabularyTerm>(_ stored: Stored<Term>, attributes: [Attribute] = []) {
        switch stored {
        case .known(let term): self.init(term, attributes: attributes)
        case .unknown(let text): self.init(unknown: text, attributes: attributes)
        }
    }
}

/// `users.plan`.
extension Plan: BadgeStatus {
    var badge: (tone: StatusBadge.Tone, text: String) { (self == .premium ? .good : .neutral, rawValue) }
}

/// `users.status`.
extension AccountStatus: BadgeStatus {
    var badge: (tone: StatusBadge.Tone, text: String) {
        switch self {
        case .active: (.good, rawValue)
        case .suspended: (.warning, rawValue)
        case .deleted: (.bad, rawValue)
        }
    }
}

/// `subscriptions.status`: past due and cancelled are a premium user about to lapse.
extension SubscriptionStatus: BadgeStatus {
    var badge: (tone: StatusBadge.Tone, text: String) {
        switch self {
        case .active: (.good, rawValue)
        case .pastDue: (.warning, "past due")
        case .cancelled: (.warning, rawValue)
        case .expired, .refunded: (.neutral, rawValue)
        }
    }
}

/// `devices.push_permission`; the app stores "unknown" for a permission not asked yet.
extension PushPermission: BadgeStatus {
    var badge: (tone: StatusBadge.Tone, text: String) {
        switch self {
        case .granted: (.good, rawValue)
        case .denied: (.bad, rawValue)
        case .unknown: (.warning, "not asked yet")
        }
    }
}

/// `reminders.status`.
extension ReminderStatus: BadgeStatus {
    var badge: (tone: StatusBadge.Tone, text: String) {
        switch self {
        case .scheduled: (.info, rawValue)
        case .sent: (.good, rawValue)
        case .failed: (.bad, rawValue)
        case .cancelled: (.neutral, rawValue)
        }
    }
}

/// A reminder as a user's reminder list counts it: overdue is still scheduled, past its time.
extension UserReminders.Status: BadgeStatus {
    var badge: (tone: StatusBadge.Tone, text: String) {
        switch self {
        case .scheduled: (.info, rawValue)
        case .overdue: (.warning, "overdue (scheduled)")
        case .sent: (.good, rawValue)
        case .failed: (.bad, rawValue)
        case .cancelled: (.neutral, rawValue)
        }
    }
}

/// `panel_deliveries.state`. "unknown" is a real state here (in flight at a stop), not a value
/// the panel misread.
extension DeliveryState: BadgeStatus {
    var badge: (tone: StatusBadge.Tone, text: String) {
        switch self {
        case .queued, .sending, .retry: (.info, rawValue)
        case .accepted: (.good, rawValue)
        case .failed, .dead: (.bad, rawValue)
        case .unknown: (.warning, "unknown (in flight at a stop)")
        case .capped, .excluded: (.warning, rawValue)
        case .cancelled: (.neutral, rawValue)
        }
    }
}

/// What a delivery's device said back: the app's receipts.
extension ReceiptState: BadgeStatus {
    var badge: (tone: StatusBadge.Tone, text: String) {
        switch self {
        case .nothing: (.neutral, "nothing yet")
        case .received: (.info, rawValue)
        case .opened: (.good, rawValue)
        }
    }
}

/// A campaign as its list and page show it.
extension CampaignShownStatus: BadgeStatus {
    var badge: (tone: StatusBadge.Tone, text: String) {
        switch self {
        case .draft: (.neutral, rawValue)
        case .materialising: (.info, "preparing the audience")
        case .scheduled, .sending: (.info, rawValue)
        case .paused: (.warning, rawValue)
        case .cancelled: (.bad, rawValue)
        case .finished: (.good, rawValue)
        }
    }
}

/// A journey (an automated campaign).
extension JourneyStatus: BadgeStatus {
    var badge: (tone: StatusBadge.Tone, text: String) {
        switch self {
        case .draft, .ended: (.neutral, rawValue)
        case .active: (.good, rawValue)
        case .paused: (.warning, rawValue)
        }
    }
}

/// A staff account.
extension StaffAccountState: BadgeStatus {
    var badge: (tone: StatusBadge.Tone, text: String) {
        switch self {
        case .active: (.good, "active")
        case .disabled: (.bad, "disabled")
        case .oneTimePassword: (.warning, "one-time password")
        }
    }
}

/// A throttle entry on the failed sign-ins page.
extension SignInLockState: BadgeStatus {
    var badge: (tone: StatusBadge.Tone, text: String) {
        self == .locked ? (.bad, "locked") : (.warning, "not locked (slowed only)")
    }
}

/// A staff account's second factor.
extension TwoFactorState: BadgeStatus {
    var badge: (tone: StatusBadge.Tone, text: String) {
        switch self {
        case .on: (.good, rawValue)
        case .off: (.neutral, rawValue)
        case .pending: (.warning, "not set up (required)")
        }
    }
}

/// A device's push token.
extension TokenState: BadgeStatus {
    var badge: (tone: StatusBadge.Tone, text: String) {
        switch self {
        case .none: (.neutral, "no token")
        case .live: (.good, rawValue)
        case .dead: (.bad, rawValue)
        }
    }
}

/// A profile's reachability findings.
extension Reachability.Mark: BadgeStatus {
    var badge: (tone: StatusBadge.Tone, text: String) {
        switch self {
        case .fine: (.good, "OK")
        case .blocks: (.bad, "Blocks")
        case .mayNot: (.warning, "May not")
        case .note: (.info, "Note")
        }
    }
}

/// An item of a user's, by its expiry.
extension UserItems.State: BadgeStatus {
    var badge: (tone: StatusBadge.Tone, text: String) {
        switch self {
        case .expired: (.bad, label)
        case .expiringSoon: (.warning, label)
        case .safe: (.good, label)
        case .consumed: (.neutral, label)
        }
    }
}

/// Reminder health: a success criterion against its target.
extension CriterionVerdict: BadgeStatus {
    var badge: (tone: StatusBadge.Tone, text: String) {
        switch self {
        case .met: (.good, "yes")
        case .under: (.bad, "no: under its target")
        case .nothingToMeasure: (.neutral, "n/a")
        }
    }
}
