import Foundation
import Synchronization

/// A timezone's offset from UTC at a moment, remembered between its clock changes: the
/// histogram folds millions of events and a launch plans a million pushes, and asking
/// Foundation each time costs more than the rest of a row.
public final class ZoneOffsets: Sendable {
    private struct Span {
        let from: Int64
        let until: Int64
        let offset: Int64
    }

    public let zone: TimeZone
    private let spans = Mutex<[Span]>([])

    public init(_ zone: TimeZone) {
        self.zone = zone
    }

    /// Seconds east of UTC at `unix` seconds.
    public func offset(at unix: Int64) -> Int64 {
        if let hit = spans.withLock({ $0.first { $0.from <= unix && unix < $0.until } }) { return hit.offset }
        let date = Date(timeIntervalSince1970: TimeInterval(unix))
        let offset = Int64(zone.secondsFromGMT(for: date))
        // The span runs from this moment to the next clock change (or a year on, for a zone
        // without changes); lookups before it start a span of their own.
        let next = zone.nextDaylightSavingTimeTransition(after: date).map {
            Int64($0.timeIntervalSince1970.rounded(.down))
        }
        let span = Span(from: unix, until: min(next ?? Int64.max, unix + 366 * 86_400), offset: offset)
        spans.withLock { list in
            if list.count >= 16 { list.removeFirst() }
            list.append(span)
        }
        return offset
    }

    /// The local wall-clock seconds since 1970 at `unix`.
    public func local(_ unix: Int64) -> Int64 { unix + offset(at: unix) }

    /// The UTC moment of a local wall-clock time; in a gap (clocks go forward) the moment the
    /// clocks change, in an overlap (clocks go back) the first of the two.
    public func utc(fromLocal local: Int64) -> Int64 {
        // The offsets a day either side cover every zone's changes (at most a few hours).
        let candidates = Set([
            local - offset(at: local - 86_400), local - offset(at: local + 86_400), local - offset(at: local),
        ])
        if let first = candidates.filter({ self.local($0) == local }).min() { return first }
        let earliest = candidates.min() ?? local
        let change = zone.nextDaylightSavingTimeTransition(
            after: Date(timeIntervalSince1970: TimeInterval(earliest - 1)))
        return change.map { Int64($0.timeIntervalSince1970.rounded(.down)) } ?? earliest
    }

    /// One instance per zone name, for the whole process.
    public static func of(_ zone: TimeZone) -> ZoneOffsets {
        cache.withLock { cache in
            if let known = cache[zone.identifier] { return known }
            let made = ZoneOffsets(zone)
            if cache.count < 4_000 { cache[zone.identifier] = made }
            return made
        }
    }

    /// The offsets of a stored timezone name, or of `fallback` when the name is not one (the
    /// same test as profiles, `UserCalendar.zone(named:)`), remembered by name: looking a
    /// zone up costs more than planning a push.
    public static func named(_ name: String?, fallback: TimeZone) -> (offsets: ZoneOffsets, valid: Bool) {
        let key = (name ?? "") + "\u{0}" + fallback.identifier
        if let known = byName.withLock({ $0[key] }) { return known }
        let zone = name.flatMap(UserCalendar.zone(named:))
        let found = (of(zone ?? fallback), zone != nil)
        byName.withLock { cache in if cache.count < 4_000 { cache[key] = found } }
        return found
    }

    private static let cache = Mutex<[String: ZoneOffsets]>([:])
    private static let byName = Mutex<[String: (offsets: ZoneOffsets, valid: Bool)]>([:])
}
