import Testing

@testable import AdminWeb

/// Cells as RFC 4180 quotes them and as OWASP's CSV-injection advice defuses them (a cell
/// starting with = + - @ tab or carriage return is prefixed with '), read by Unicode scalars:
/// a joiner or a combining mark after "=" makes one `Character` that is not "=".
@Suite(.timeLimit(.minutes(20))) struct CSVCellTests {
    @Test(arguments: [
        ("plain", "plain"),
        ("=\u{200D}HYPERLINK(\"http://evil\")", "\"'=\u{200D}HYPERLINK(\"\"http://evil\"\")\""),
        ("=\u{0301}1+1", "'=\u{0301}1+1"),
        ("+1", "'+1"),
        ("-2", "'-2"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\r\nx", "\"'\r\nx\""),
        ("a\r\nb", "\"a\r\nb\""),
        ("a,b", "\"a,b\""),
        ("say \"hi\"", "\"say \"\"hi\"\"\""),
        ("x=1", "x=1"),
    ])
    func aCellIsDefusedAndQuotedByItsScalars(value: String, expected: String) {
        #expect(CSV.cell(value) == expected)
    }
}
