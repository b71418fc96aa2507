import Foundation

/// How long to wait before the next try: the provider's `Retry-After` when it gives one, else
/// exponential back-off with jitter, so that a million retries do not arrive together.
public enum RetryDelay {
    public static let base: Duration = .seconds(1)
    public static let ceiling: Duration = .seconds(3_600)

    /// Full back-off for this attempt, jittered down to between half and all of it.
    public static func backoff(attempt: Int, minimum: Duration = .zero) -> Duration {
        let exponent = min(max(attempt, 0), 12)
        let full = min(base * (1 << exponent), ceiling)
        let millis = full.components.seconds * 1000
        let jittered = Duration.milliseconds(Int64.random(in: (millis / 2)...max(millis / 2, millis)))
        return max(jittered, minimum)
    }

    /// The provider's wish if it said one, never below `minimum`; else back-off.
    public static func after(retryAfter: String?, attempt: Int, minimum: Duration = .zero, now: Date = Date())
        -> Duration
    {
        if let wish = parse(retryAfter: retryAfter, now: now) { return max(wish, minimum) }
        return backoff(attempt: attempt, minimum: minimum)
    }

    /// `Retry-After` is either whole seconds or an HTTP date (RFC 9110 10.2.3).
    static func parse(retryAfter: String?, now: Date) -> Duration? {
        guard let text = retryAfter?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if let seconds = Int64(text), seconds >= 0 { return .seconds(min(seconds, ceiling.components.seconds)) }
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "GMT")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = format.date(from: text) else { return nil }
        let seconds = Int64(max(0, min(date.timeIntervalSince(now), Double(ceiling.components.seconds))).rounded(.up))
        return .seconds(seconds)
    }
}
