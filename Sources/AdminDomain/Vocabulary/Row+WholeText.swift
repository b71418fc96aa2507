import Foundation
import GRDB

/// Text that users typed, read whole. GRDB reads a TEXT value through `sqlite3_column_text`
/// as a C string, which ends at the first NUL byte: a display name "Ann\0Lee" read "Ann",
/// and support saw a shorter name than the app stores. Queries select such columns as
/// `CAST(column AS BLOB)` (see `wholeText(_:)`), which keeps every byte, and rows decode them
/// here; invalid UTF-8 is repaired as for text.
extension Row {
    func wholeText(_ column: String) throws -> String? {
        try Self.whole(self[column]) { try decode(forColumn: column) }
    }

    /// A blob (what the cast makes) as UTF-8; anything else as GRDB decodes it.
    private static func whole(_ value: DatabaseValue, otherwise: () throws -> String?) rethrows -> String? {
        switch value.storage {
        case .null: return nil
        case .blob(let data): return String(decoding: data, as: UTF8.self)
        case .string(let text): return text
        default: return try otherwise()
        }
    }

    /// A NOT NULL column read whole.
    func wholeText(required column: String) throws -> String {
        guard let text = try wholeText(column) else { return try decode(forColumn: column) }
        return text
    }
}

/// `CAST(expression AS BLOB) AS name`, for a text column that rows read with `wholeText`.
func wholeText(_ expression: String, as name: String) -> String {
    "CAST(\(expression) AS BLOB) AS \(name)"
}
