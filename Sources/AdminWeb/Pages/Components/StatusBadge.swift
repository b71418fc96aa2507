import AdminDomain
import HTMLRender

/// A status as the panel shows it everywhere: its word in a pill whose colour says the tone.
/// The word is always there (colour alone says nothing to a screen reader or to someone
/// who does not tell red from green); each tone's colours pass 4.5:1 (app.css, `.badge`).
struct StatusBadge: HTMLComponent {
    /// How a status reads at a glance. One mapping per status type says which tone each
    /// value has (`StatusBadge+Vocabulary.swift`); an unknown value is always neutral.
    enum Tone: String, CaseIterable, Sendable {
        case neutral, good, warning, bad, info
    }

    let tone: Tone
    let text: String
    /// An id and data attributes, for the one badge a page's script updates.
    var attributes: [Attribute] = []

    init(_ tone: Tone, _ text: String, attributes: [Attribute] = []) {
        self.tone = tone
        self.text = text
        self.attributes = attributes
    }

    /// A known status by its type's mapping.
    init(_ status: some BadgeStatus, attributes: [Attribute] = []) {
        self.init(status.badgeTone, status.badgeText, attributes: attributes)
    }

    /// What the data holds when it is no status this panel knows; its text is shown as
    /// typed, controls made visible, and escaped like all text.
    init(unknown stored: String, attributes: [Attribute] = []) {
        self.init(.neutral, "unknown (\(UserText.visible(String(stored.prefix(200)))))", attributes: attributes)
    }

    var content: HTMLNode {
        element("span", [.class("badge tone-\(tone.rawValue)")] + attributes) { text }
    }
}

/// A status type with a badge: the tone and word of each value side by side, in one switch
/// per type, so that the compiler finds a value left out.
protocol BadgeStatus {
    var badge: (tone: StatusBadge.Tone, text: String) { get }
}

extension BadgeStatus {
    var badgeTone: StatusBadge.Tone { badge.tone }
    var badgeText: String { badge.text }
}
