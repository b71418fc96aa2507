import AdminDomain
import Foundation
import Hummingbird

/// RFC 4180 lines, with cells that a spreadsheet would run as a formula defused.
enum CSV {
    /// Spreadsheets read a file that starts with it as UTF-8 ("Małgorzata", not "MaÅ‚gorzata").
    static let byteOrderMark = "\u{FEFF}"

    /// `base-part-part.csv` from the filters a download carries: letters, digits and dashes
    /// only, whatever was typed.
    static func filename(_ base: String, _ parts: [String?]) -> String {
        let words = ([base] + parts.compactMap { $0 }).map { part in
            String(part.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" }.prefix(40))
        }
        return words.joined(separator: "-") + ".csv"
    }

    /// The part of a file name saying when the download began: `as-of-20261202T010533Z`
    /// (UTC, to the second), lower-cased by `filename` like every part.
    static func asOf(_ date: Date) -> String {
        let stamp = SQLiteTime.string(date).filter { $0 != "-" && $0 != ":" }.replacingOccurrences(of: " ", with: "T")
        return "as-of-\(stamp)Z"
    }

    /// A download written batch by batch as `rows` hands them over: memory stays flat
    /// however long the list.
    /// Rows already made (a report's few): written in one batch.
    static func response(filename: String, header: [String], numeric: Set<Int> = [], rows: [[String]]) -> Response {
        response(filename: filename, header: header, numeric: numeric) { emit in try await emit(rows) }
    }

    static func response(
        filename: String, header: [String], numeric: Set<Int> = [],
        rows: @escaping @Sendable (_ emit: ([[String]]) async throws -> Void) async throws -> Void
    ) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: "text/csv; charset=utf-8", .contentDisposition: "attachment; filename=\"\(filename)\"",
            ],
            body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: byteOrderMark + line(header)))
                try await rows { batch in
                    var buffer = ByteBuffer()
                    for cells in batch { buffer.writeString(line(cells, numeric: numeric)) }
                    try await writer.write(buffer)
                }
                try await writer.finish(nil)
            })
    }

    static func line(_ cells: [String]) -> String {
        cells.map(cell).joined(separator: ",") + "\r\n"
    }

    /// Read by Unicode scalars, never by `Character`: "=" followed by a joiner is one
    /// character that is not "=", and "\r\n" is one that is neither "\r" nor "\n".
    static func cell(_ value: String) -> String {
        var text = value
        // "=cmd|…", "+…", "-…", "@…": prefixed so spreadsheets show them as text.
        if let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) { text = "'" + text }
        guard text.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
            return text
        }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A line whose `numeric` columns hold numbers the panel computed: a negative one
    /// ("-0.062254") is no formula and stays a number; anything else there is defused as usual.
    static func line(_ cells: [String], numeric: Set<Int>) -> String {
        cells.enumerated().map {
            numeric.contains($0.offset) && isPlainNumber($0.element) ? $0.element : cell($0.element)
        }
        .joined(separator: ",") + "\r\n"
    }

    /// "-12", "-0.5": a minus, digits and at most one point, nothing else.
    static func isPlainNumber(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        guard scalars.first == "-", scalars.count > 1 else { return false }
        let rest = scalars.dropFirst()
        return rest.allSatisfy { ("0"..."9").contains($0) || $0 == "." } && rest.filter { $0 == "." }.count <= 1
            && rest.first != "."
    }
}
