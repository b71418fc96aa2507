import AdminDomain
import Foundation

/// Forms sent after their session ended, kept in memory until the person has signed in
/// again and is back on the form's page, at most an hour: the page is then shown filled in
/// (to check and send again, never sent by itself). The browser holds the key in an
/// HttpOnly cookie, so another browser cannot bring someone else's text up. Never written to
/// disk; a restart loses it.
actor FormStash {
    struct Kept: Sendable {
        let form: FormFields
        /// `FormRules.key` of the route the form was posted to.
        let route: String
        let page: String
        let until: Date
    }

    static let lifetime: TimeInterval = 3_600
    /// Bodies are at most 64 KiB: a few megabytes at worst; the oldest goes first.
    static let capacity = 200
    private var kept: [String: Kept] = [:]

    /// Keeps the form and returns the key for the browser's cookie.
    func keep(_ form: FormFields, route: String, page: String, now: Date = Date()) -> String {
        kept = kept.filter { $0.value.until > now }
        if kept.count >= Self.capacity, let oldest = kept.min(by: { $0.value.until < $1.value.until })?.key {
            kept[oldest] = nil
        }
        let key = SecureToken.random()
        kept[SecureToken.sha256Hex(key)] = Kept(
            form: form, route: route, page: page, until: now.addingTimeInterval(Self.lifetime))
        return key
    }

    /// The form kept under `key` for `page`, once.
    func take(_ key: String, page: String, now: Date = Date()) -> Kept? {
        let hashed = SecureToken.sha256Hex(key)
        guard let entry = kept[hashed], entry.page == page else { return nil }
        kept[hashed] = nil
        return entry.until > now ? entry : nil
    }
}
