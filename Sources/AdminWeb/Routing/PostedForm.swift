import Foundation

/// A form body as the browser sent it (application/x-www-form-urlencoded), kept whole so
/// that a refused form can be shown again as it was typed.
struct PostedForm: Sendable {
    let text: String

    init(_ text: String) {
        self.text = text
    }

    /// Each field's name and value in order, decoded as browsers encode them ("+" a space).
    /// A malformed escape leaves its field out: the route's own decoding refuses it.
    var fields: [(name: String, value: String)] {
        text.split(separator: "&").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]), let value = Self.decode(parts.count > 1 ? parts[1] : "") else { return nil }
            return (name, value)
        }
    }

    /// A field's first value.
    subscript(_ name: String) -> String? {
        fields.first { $0.name == name }?.value
    }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
