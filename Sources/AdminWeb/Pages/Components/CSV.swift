import Hummingbird

/// RFC 4180 lines, with cells that a spreadsheet would run as a formula defused.
enum CSV {
    /// A download written batch by batch as `rows` hands them over: memory stays flat
    /// however long the list.
    static func response(filename: String, header: [String],
                         rows: @escaping @Sendable (_ emit: ([[String]]) async throws -> Void) async throws -> Void) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "text/csv; charset=utf-8", .contentDisposition: "attachment; filename=\"\(filename)\""],
            body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: line(header)))
                try await rows { batch in
                    var buffer = ByteBuffer()
                    for cells in batch { buffer.writeString(line(cells)) }
                    try await writer.write(buffer)
                }
                try await writer.finish(nil)
            })
    }

    static func line(_ cells: [String]) -> String {
        cells.map(cell).joined(separator: ",") + "\r\n"
    }

    static func cell(_ value: String) -> String {
        var text = value
        // "=cmd|…", "+…", "-…", "@…": prefixed so spreadsheets show them as text.
        if let first = text.first, "=+-@\t\r".contains(first) { text = "'" + text }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
