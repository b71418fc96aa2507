/// The address inside what support pastes from a ticket: `Name <address>`, `‹address›`,
/// `mailto:address?subject=…`, or the address in quotes or followed by punctuation.
public enum PastedAddress {
    /// Characters a pasted address is often wrapped in or followed by.
    static let wrappers: Set<Character> = [
        "\"", "'", "“", "”", "‘", "’", "«", "»", "‹", "›", "<", ">", "(", ")", "[", "]", ",", ";", ":", ".",
    ]

    /// The address, or nil when the text is not one of those forms (it is searched as typed).
    public static func address(in text: String) -> String? {
        var candidate = Substring(text)
        // The last bracketed part that holds an '@': `Name <address>` or `Name ‹address›`.
        for (open, close) in [("<", ">"), ("‹", "›")] {
            if let end = candidate.lastIndex(of: Character(close)),
                let start = candidate[..<end].lastIndex(of: Character(open)),
                candidate[candidate.index(after: start)..<end].contains("@")
            {
                candidate = candidate[candidate.index(after: start)..<end]
                break
            }
        }
        candidate = candidate.drop { wrappers.contains($0) || $0.isWhitespace }
        while let last = candidate.last, wrappers.contains(last) || last.isWhitespace {
            candidate = candidate.dropLast()
        }
        if candidate.lowercased().hasPrefix("mailto:") {
            candidate = candidate.dropFirst("mailto:".count)
            if let query = candidate.firstIndex(of: "?") { candidate = candidate[..<query] }
        }
        let address = String(candidate)
        // A plain address only: an email stored with brackets in it (`<b>x</b>@odd.test`) is
        // searched as typed.
        let brackets: Set<Character> = [
            "\"", "“", "”", "«", "»", "‹", "›", "<", ">", "(", ")", "[", "]", ",", ";", ":",
        ]
        guard address != text, address.filter({ $0 == "@" }).count == 1, !address.contains(where: \.isWhitespace),
            !address.contains(where: brackets.contains), !address.hasPrefix("@"), !address.hasSuffix("@")
        else { return nil }
        return address
    }
}
