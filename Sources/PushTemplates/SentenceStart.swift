/// A filled value or fallback that opens a sentence gets a capital, as the recipient's
/// language writes one (issue 46: "some items expire soon" went to every recipient without
/// a count). Values are marked while the template renders, so the rule sees where each
/// one landed, inside sections too; the template's own words and the rest of a value are
/// left as written.
enum SentenceStart {
    /// Noncharacters: never valid in interchanged text, so taken out of values first. Made
    /// from their numbers, as Swift refuses them in a literal.
    static let open = Character(Unicode.Scalar(0xFDD0 as UInt32)!)
    static let close = Character(Unicode.Scalar(0xFDD1 as UInt32)!)

    static func marked(_ value: String) -> String {
        "\(open)\(unmarked(value))\(close)"
    }

    static func unmarked(_ text: String) -> String {
        text.contains(where: { $0 == open || $0 == close }) ? text.filter { $0 != open && $0 != close } : text
    }

    /// Marks removed; each marked value at a sentence's start capitalised for `language`.
    static func apply(_ text: String, language: String) -> String {
        var result = ""
        var atStart = true
        var afterStop = false
        var capitalizeNext = false
        // Dutch: the j of an ij that opens a sentence is a capital too.
        var dutchJ = false
        for character in text {
            if dutchJ {
                dutchJ = false
                if character == "j" {
                    result.append("J")
                    atStart = false
                    continue
                }
            }
            if character == open {
                capitalizeNext = atStart
                continue
            }
            if character == close {
                capitalizeNext = false
                continue
            }
            if capitalizeNext, character.isLetter {
                result += capitalized(character, language: language)
                capitalizeNext = false
                dutchJ = language == "nl" && character == "i"
            } else {
                result.append(character)
                // A value opening with a digit or a symbol has nothing to capitalise.
                if capitalizeNext, !isOpening(character) { capitalizeNext = false }
            }
            if character.isNewline {
                atStart = true
                afterStop = false
            } else if stops.contains(character) {
                // Scripts that set no space after a stop start the next sentence at once.
                atStart = closedStops.contains(character)
                afterStop = true
            } else if character.isWhitespace {
                if afterStop { atStart = true }
                afterStop = false
            } else if isOpening(character) {
                continue
            } else if afterStop, isClosing(character) {
                continue
            } else {
                atStart = false
                afterStop = false
            }
        }
        return result
    }

    static let stops: Set<Character> = [".", "!", "?", "。", "！", "？", "؟", "।"]
    static let closedStops: Set<Character> = ["。", "！", "？"]

    /// Quotes and brackets that open, and Spanish ¿ ¡: a sentence starts after them too.
    static func isOpening(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first else { return false }
        switch scalar.properties.generalCategory {
        case .openPunctuation, .initialPunctuation: return true
        default: return character == "\"" || character == "'" || character == "¡" || character == "¿"
        }
    }

    static func isClosing(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first else { return false }
        switch scalar.properties.generalCategory {
        case .closePunctuation, .finalPunctuation: return true
        default: return character == "\"" || character == "'"
        }
    }

    /// Unicode's title case of the first scalar (ß is "Ss", ǆ is ǅ), combining marks kept;
    /// Turkish and Azeri dotted i (Dutch ij is `apply`'s).
    static func capitalized(_ character: Character, language: String) -> String {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return String(character) }
        let rest = String(String.UnicodeScalarView(scalars.dropFirst()))
        if first == "i", language == "tr" || language == "az" { return "\u{0130}" + rest }
        return first.properties.titlecaseMapping + rest
    }
}
