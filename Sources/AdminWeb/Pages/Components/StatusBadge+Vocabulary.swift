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
    var badgeTone: StatusBadge.Tone { self == .premium ? .good : .neutral }
    var badgeText: String { rawValue }
}

/// `users.status`.
extension AccountStatus: BadgeStatus {
    var badgeTone: StatusBadge.Tone {
        switch self {
        case .active: .good
        case .suspended: .warning
        case .deleted: .bad
        }
    }
    var badgeText: String { rawValue }
}

/// `subscriptions.status`: past due and cancelled are a premium user about to lapse.
extension SubscriptionStatus: BadgeStatus {
    var badgeTone: StatusBadge.Tone {
        switch self {
        case .active: .good
        case .pastDue, .cancelled: .warning
        case .expired, .refunded: .neutral
        }
    }
    var badgeText: String { self == .pastDue ? "past due" : rawValue }
}

/// `devices.push_permission`; the app stores "unknown" for a permission not asked yet.
extension PushPermission: BadgeStatus {
    var badgeTone: StatusBadge.Tone {
        switch self {
        case .granted: .good
        case .denied: .bad
        case .unknown: .warning
        }
    }
    var badgeText: String { self == .unknown ? "not asked yet" : rawValue }
}

/// `reminders.status`.
extension ReminderStatus: BadgeStatus {
    var badgeTone: StatusBadge.Tone {
        switch self {
        case .scheduled: .info
        case .sent: .good
        case .failed: .bad
        case .cancelled: .neutral
        }
    }
    var badgeText: String { rawValue }
}

/// A reminder as a user's reminder list counts it: overdue is still scheduled, past its time.
extension UserReminders.Status: BadgeStatus {
    var badgeTone: StatusBadge.Tone {
        switch self {
        case .scheduled: .info
        case .overdue: .warning
        case .sent: .good
        case .failed: .bad
        case .cancelled: .neutral
        }
    }
    var badgeText: String { self == .overdue ? "overdue (scheduled)" : rawValue }
}

/// `panel_deliveries.state`.
extension DeliveryState: BadgeStatus {
    var badgeTone: StatusBadge.Tone {
        switch self {
        case .queued, .sending, .retry: .info
        case .accepted: .good
        case .failed, .dead: .bad
        case .unknown, .capped, .excluded: .warning
        case .cancelled: .neutral
        }
    }
    /// "unknown" is a real state here (in flight at a stop), not a value the panel misread.
    var badgeText: String { self == .unknown ? "unknown (in flight at a stop)" : rawValue }
}

/// What a delivery's device said back: the app's receipts.
extension ReceiptState: BadgeStatus {
    var badgeTone: StatusBadge.Tone {
        switch self {
        case .nothing: .neutral
        case .received: .info
        case .opened: .good
        }
    }
    var badgeText: String { self == .nothing ? "nothing yet" : rawValue }
}

/// A campaign as its list and page show it.
extension CampaignShownStatus: BadgeStatus {
    var badgeTone: StatusBadge.Tone {
        switch self {
        case .draft: .neutral
        case .materialising, .scheduled, .sending: .info
        case .paused: .warning
        case .cancelled: .bad
        case .finished: .good
        }
    }
    var badgeText: String { self == .materialising ? "preparing the audience" : rawValue }
}

/// A journey (an automated campaign).
extension JourneyStatus: BadgeStatus {
    var badgeTone: StatusBadge.Tone {
        switch self {
        case .draft: .neutral
        case .active: .good
        case .paused: .warning
        case .ended: .neutral
        }
    }
    var badgeText: String { rawValue }
}

/// A staff account.
extension StaffAccountState: BadgeStatus {
    var badgeTone: StatusBadge.Tone {
        switch self {
        case .active: .good
        case .disabled: .bad
        case .oneTimePassword: .warning
        }
    }
    var badgeText: String {
        switch self {
        case .active: "active"
        case .disabled: "disabled"
        case .oneTimePassword: "one-time password"
        }
    }
}

/// A throttle entry on the failed sign-ins page.
extension SignInLockState: BadgeStatus {
    var badgeTone: StatusBadge.Tone { self == .locked ? .bad : .warning }
    var badgeText: String { self == .locked ? "locked" : "not locked (slowed only)" }
}

/// A staff account's second factor.
extension TwoFactorState: BadgeStatus {
    var badgeTone: StatusBadge.Tone {
        switch self {
        case .on: .good
        case .off: .neutral
        case .pending: .warning
        }
    }
    var badgeText: String { self == .pending ? "not set up (required)" : rawValue }
}

/// A device's push token.
extension TokenState: BadgeStatus {
    var badgeTone: StatusBadge.Tone {
        switch self {
        case .none: .neutral
        case .live: .good
        case .dead: .bad
        }
    }
    var badgeText: String { self == .none ? "no token" : rawValue }
}

/// A profile's reachability findings.
extension Reachability.Mark: BadgeStatus {
    var badgeTone: StatusBadge.Tone {
        switch self {
        case .fine: .good
        case .blocks: .bad
        case .mayNot: .warning
        case .note: .info
        }
    }
    var badgeText: String {
        switch self {
        case .fine: "OK"
        case .blocks: "Blocks"
        case .mayNot: "May not"
        case .note: "Note"
        }
    }
}

/// An item of a user's, by its expiry.
extension UserItems.State: BadgeStatus {
    var badgeTone: StatusBadge.Tone {
        switch self {
        case .expired: .bad
        case .expiringSoon: .warning
        case .safe: .good
        case .consumed: .neutral
        }
    }
    var badgeText: String { label }
}

/// Reminder health: a success criterion against its target.
extension CriterionVerdict: BadgeStatus {
    var badgeTone: StatusBadge.Tone {
        switch self {
        case .met: .good
        case .under: .bad
        case .nothingToMeasure: .neutral
        }
    }
    var badgeText: String {
        switch self {
        case .met: "yes"
        case .under: "no: under its target"
        case .nothingToMeasure: "n/a"
        }
    }
}
