import Foundation
import GRDB

/// A time the panel writes in its own `panel_*` tables: UTC, to the second, stored as the
/// text 'YYYY-MM-DD HH:MM:SS' that SQLite's `datetime()` writes, so that rows stored before
/// it read the same and SQL still compares and orders them as text. The app's tables, which
/// the backend writes, keep their tolerant reading (`SQLiteTime`, `Stored`).
public struct PanelTime: Sendable, Hashable, Comparable, Codable, DatabaseValueConvertible, CustomStringConvertible {
    public let secondsSinceEpoch: Int64

    public init(secondsSinceEpoch: Int64) {
        self.secondsSinceEpoch = secondsSinceEpoch
    }

    /// To the second, rounded down, as `SQLiteTime.string` always wrote it.
    public init(_ date: Date) {
        secondsSinceEpoch = Int64(date.timeIntervalSince1970.rounded(.down))
    }

    /// The stored text (a 'T' for the space, or a day alone, read as SQLite reads them); nil
    /// for anything else.
    public init?(text: String) {
        guard let seconds = SQLiteTime.seconds(text) else { return nil }
        secondsSinceEpoch = seconds
    }

    /// 'YYYY-MM-DD HH:MM:SS', the stored form.
    public var text: String { SQLiteTime.string(secondsSinceEpoch: secondsSinceEpoch) }
    public var date: Date { Date(timeIntervalSince1970: TimeInterval(secondsSinceEpoch)) }
    public var description: String { text }

    public func adding(seconds: Int64) -> PanelTime { PanelTime(secondsSinceEpoch: secondsSinceEpoch + seconds) }

    public static func < (lhs: PanelTime, rhs: PanelTime) -> Bool { lhs.secondsSinceEpoch < rhs.secondsSinceEpoch }

    public var databaseValue: DatabaseValue { text.databaseValue }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> PanelTime? {
        String.fromDatabaseValue(dbValue).flatMap(PanelTime.init(text:))
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let time = PanelTime(text: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a panel time: \(text)"))
        }
        self = time
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
