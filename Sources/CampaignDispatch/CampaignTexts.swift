import AdminDomain
import Foundation
import PushTemplates

/// Campaign titles and bodies filled for their recipients: for each claimed delivery when
/// sending, and for the pushes a user got when support reads their profile. One code path,
/// so the profile shows what the sender makes of the same campaign and values.
public struct CampaignTexts: Sendable {
    let library: PushTemplateLibrary
    let database: PanelDatabase

    /// One text to fill: the campaign's stored text and template, for one user.
    public struct Wanted: Sendable {
        /// The caller's name for it: the result is keyed by it.
        public let key: Int64
        public let campaignID: Int64
        public let userID: Int64
        public let title: String
        public let body: String
        public let template: String?
        /// Which of the campaign's messages: texts are read once per campaign and variant.
        public let variant: MessageVariant

        public init(
            key: Int64, campaignID: Int64, userID: Int64, title: String, body: String, template: String?,
            variant: MessageVariant = .a
        ) {
            self.variant = variant
            self.key = key
            self.campaignID = campaignID
            self.userID = userID
            self.title = title
            self.body = body
            self.template = template
        }
    }

    public struct Filled: Sendable, Equatable {
        public let title: String
        public let body: String
        /// Filled with the recipient's values (their name, items, language): true when the
        /// campaign's text has a placeholder in any language.
        public let isPersonal: Bool
    }

    public init(library: PushTemplateLibrary, database: PanelDatabase) {
        self.library = library
        self.database = database
    }

    /// By delivery row; a delivery missing here is sent with its campaign's text as stored
    /// (which the composer checked, so this happens only if a template was removed since).
    /// Never fails: the rows are already claimed, so if the recipients' values cannot be
    /// read, each placeholder gets its fallback ("Hi there") rather than no push at all.
    func render(_ claimed: [ClaimedDelivery]) async -> [Int64: (title: String, body: String)] {
        let wanted = claimed.map {
            Wanted(
                key: $0.rowID, campaignID: $0.campaignID, userID: $0.userID, title: $0.title, body: $0.body,
                template: $0.template,
                variant: $0.variant)
        }
        return await fill(wanted).mapValues { ($0.title, $0.body) }
    }

    /// By `key`; missing when the campaign's text cannot be read (see above). Recipients'
    /// values are read as of `now`: the items that count are those expiring within a week of it.
    public func fill(_ wanted: [Wanted], now: Date = Date()) async -> [Int64: Filled] {
        var texts: [String: CampaignText] = [:]
        func key(_ item: Wanted) -> String { "\(item.campaignID)/\(item.variant.rawValue)" }
        for item in wanted where texts[key(item)] == nil {
            texts[key(item)] = try? CampaignText(
                title: item.title, body: item.body, template: item.template, library: library)
        }
        guard !texts.isEmpty else { return [:] }
        // Only recipients whose text depends on them (a tag, or a template in several
        // languages) are read: a text the same for everyone needs no one's values.
        let dependent = texts.mapValues(\.dependsOnRecipient)
        let readFor = wanted.filter { dependent[key($0)] == true }.map(\.userID)
        let users = (try? await RecipientValues.load(readFor, in: database, now: now)) ?? [:]
        var filled: [Int64: Filled] = [:]
        // A text the same for everyone is rendered once per claim, not once per delivery.
        var same: [String: Filled] = [:]
        for item in wanted {
            guard let text = texts[key(item)] else { continue }
            let personal = dependent[key(item)] ?? true
            if !personal, let done = same[key(item)] {
                filled[item.key] = done
                continue
            }
            let recipient = users[item.userID]
            let rendered = text.render(locale: recipient?.locale ?? "en", values: recipient?.values ?? [:])
            filled[item.key] = Filled(title: rendered.title, body: rendered.body, isPersonal: text.isPersonal)
            if !personal { same[key(item)] = filled[item.key] }
        }
        return filled
    }
}
