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

    /// "72 hours", "2 minutes", "45 seconds": how long after a push consent is read again.
    static func window(_ seconds: TimeInterval) -> String {
        let whole = Int(seconds.rounded())
        if whole % 3_600 == 0 { return count(whole / 3_600, "hour", "hours") }
        if whole % 60 == 0 { return count(whole / 60, "minute", "minutes") }
        return count(whole, "second", "seconds")
    }

    static func grouped(_ value: Int) -> String {
        value.grouped
    }

    static func percent(_ fraction: Double?, decimals: Int = 1) -> String {
        guard let fraction, fraction.isFinite else { return "n/a" }
        return String(format: "%.\(decimals)f%%", fraction * 100)
    }

    /// "12.99 EUR", "299 JPY", "1.234 BHD": an amount the app stored in its currency's minor
    /// units (`price_cents`, the app's name, holds yen for JPY and fils for BHD), written with that currency's
    /// ISO 4217 decimals. A code the panel does not know is not guessed at: the amount is
    /// shown as stored, with the code, and says so.
    static func money(cents amount: Int, currency: String) -> String {
        let code = String(currency.prefix(8))
        guard let digits = CurrencyDigits.of(code) else {
            return "\(amount.grouped) \(code) (as stored; unknown currency)"
        }
        return "\(decimal(amount, digits: digits, grouped: true)) \(code)"
    }

    /// The same amount as a plain number for a CSV cell ("1234.5" is never written: "1234.50"),
    /// or the stored integer where the currency is unknown.
    static func moneyAmount(cents amount: Int, currency: String) -> String {
        guard let digits = CurrencyDigits.of(currency) else { return String(amount) }
        return decimal(amount, digits: digits, grouped: false)
    }

    /// `amount` / 10^digits in full, without floating point (an Int's every digit is kept).
    private static func decimal(_ amount: Int, digits: Int, grouped: Bool) -> String {
        let sign = amount < 0 ? "-" : ""
        var scale: UInt = 1
        for _ in 0..<digits { scale *= 10 }
        let whole = amount.magnitude / scale
        let part = amount.magnitude % scale
        let wholeText = grouped ? Self.grouped(whole) : String(whole)
        guard digits > 0 else { return sign + wholeText }
        let partText = String(part)
        return sign + wholeText + "." + String(repeating: "0", count: digits - partText.count) + partText
    }

    private static func grouped(_ value: UInt) -> String {
        let digits = Array(String(value))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }
}
