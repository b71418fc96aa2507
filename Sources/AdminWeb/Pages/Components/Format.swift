import AdminDomain
import Foundation

/// Number formats for pages, fixed so that output does not depend on the server's locale.
enum Format {
    /// A time or date from the app's tables as it reads, or what was stored when it cannot
    /// be read as one ("yesterday", "2026-13-45"): never shown as if it were a real time.
    static func stored(time text: String) -> String {
        SQLiteTime.readable(text) ? text : "unreadable (stored: “\(text.prefix(40))”)"
    }

    /// "1 user", "1,204 users".
    static func count(_ value: Int, _ one: String, _ other: String) -> String {
        "\(value.grouped) \(value == 1 ? one : other)"
    }

    static func grouped(_ value: Int) -> String {
        value.grouped
    }

    static func percent(_ fraction: Double?, decimals: Int = 1) -> String {
        guard let fraction, fraction.isFinite else { return "n/a" }
        return String(format: "%.\(decimals)f%%", fraction * 100)
    }

    /// "12.99 EUR": minor units as typed by the store; the currency code as stored.
    static func money(cents: Int, currency: String) -> String {
        let sign = cents < 0 ? "-" : ""
        let whole = cents.magnitude / 100, part = cents.magnitude % 100
        return "\(sign)\(whole).\(part < 10 ? "0" : "")\(part) \(currency.prefix(8))"
    }
}
