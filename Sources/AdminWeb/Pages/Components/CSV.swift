/// RFC 4180 lines, with cells that a spreadsheet would run as a formula defused.
enum CSV {
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
