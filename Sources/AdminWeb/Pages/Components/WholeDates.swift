import HTMLRender

/// Text with each 'YYYY-MM-DD' in it kept on one line: browsers may break a date after
/// any of its hyphens, and "2026-10-" / "25" reads as two things.
struct WholeDates: HTMLComponent {
    let text: String

    var content: HTMLNode {
        span {
            for (part, isDate) in Self.parts(text) {
                if isDate { span(.class("nowrap")) { part } } else { HTMLNode.text(part) }
            }
        }
    }

    static func parts(_ text: String) -> [(String, Bool)] {
        var parts: [(String, Bool)] = []
        var plain = ""
        var rest = Substring(text)
        while !rest.isEmpty {
            let head = rest.prefix(10)
            if head.count == 10,
                head.enumerated().allSatisfy({ index, character in
                    index == 4 || index == 7 ? character == "-" : character.isASCII && character.isNumber
                })
            {
                if !plain.isEmpty {
                    parts.append((plain, false))
                    plain = ""
                }
                parts.append((String(head), true))
                rest = rest.dropFirst(10)
            } else {
                plain.append(rest.removeFirst())
            }
        }
        if !plain.isEmpty { parts.append((plain, false)) }
        return parts
    }
}
