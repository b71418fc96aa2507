import Foundation
import Hummingbird

/// A query string read the way browsers write a GET form (application/x-www-form-urlencoded):
/// "+" is a space and "%2B" a plus. Hummingbird's `queryParameters` decodes only the percent
/// escapes, so an email pasted with spaces around it arrived as "++maria@example.com++",
/// which no trimming removes.
struct FormQuery: Sendable {
    private var values: [String: String] = [:]

    init(_ request: Request) {
        guard let query = request.uri.query else { return }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(parts[0])
            // The first value of a name counts, as with `queryParameters.get`.
            if values[name] == nil { values[name] = parts.count > 1 ? Self.decode(parts[1]) : "" }
        }
    }

    subscript(_ name: String) -> String? { values[name] }

    /// A malformed escape ("%zz") is kept as typed rather than dropping the whole value.
    private static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}

extension Request {
    /// This request's query as a browser's form wrote it.
    var formQuery: FormQuery { FormQuery(self) }
}
