import AdminDomain
import Foundation
import Hummingbird

/// The one reader of form bodies and query strings (application/x-www-form-urlencoded):
/// "+" is a space, "%XX" a byte, and the bytes must spell UTF-8. A broken escape ("%zz", a
/// lone "%", "%4", bytes that are not UTF-8) is never guessed at: the field keeps its text
/// as sent, so a form shown again loses nothing, and `problem` refuses it with a sentence
/// naming the field. `FormTextMiddleware` refuses a broken escape, an unknown field or a
/// repeated one before any route reads its form; routes then read the values from here.
struct FormFields: Sendable, Equatable {
    struct Field: Sendable, Equatable {
        let name: String
        let value: String
    }

    /// Every field in order, repeats included.
    let list: [Field]
    /// The sentence refusing the first broken escape, if any, and the field it is in (as sent).
    let brokenEscape: String?
    let brokenField: String?

    init(_ text: String) {
        var list: [Field] = []
        var broken: String?
        var brokenField: String?
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let rawName = parts[0]
            let rawValue = parts.count > 1 ? parts[1] : ""
            let name = Self.decode(rawName)
            let value = Self.decode(rawValue)
            if broken == nil {
                if name == nil {
                    broken = Self.escapeSentence("A field’s name", Self.badEscape(in: rawName))
                    brokenField = String(rawName)
                } else if let name, value == nil {
                    broken = Self.escapeSentence("The field “\(Self.shown(name))”", Self.badEscape(in: rawValue))
                    brokenField = name
                }
            }
            // Kept as sent when it cannot be read, so that nothing typed is lost on the way back.
            list.append(Field(name: name ?? String(rawName), value: value ?? String(rawValue)))
        }
        self.list = list
        brokenEscape = broken
        self.brokenField = brokenField
    }

    /// A field's first value.
    subscript(_ name: String) -> String? {
        list.first { $0.name == name }?.value
    }

    /// Every value of a field, in order.
    func values(_ name: String) -> [String] {
        list.filter { $0.name == name }.map(\.value)
    }

    var isEmpty: Bool { list.isEmpty }

    /// The first name sent more than once, if any.
    func repeated(except repeatable: Set<String> = []) -> String? {
        var seen = Set<String>()
        for field in list where !repeatable.contains(field.name) {
            if !seen.insert(field.name).inserted { return field.name }
        }
        return nil
    }

    /// The sentence refusing these fields for a route that reads `known` (a broken escape, a
    /// field it does not read, a field sent twice that it reads once), or nil.
    func problem(known: Set<String>, repeatable: Set<String> = []) -> String? {
        if let brokenEscape { return brokenEscape }
        if let unknown = list.first(where: { !known.contains($0.name) }) {
            return
                "This page has no field “\(Self.shown(unknown.name))”, so nothing was done: "
                + "use the panel’s own links and forms."
        }
        if let twice = repeated(except: repeatable) {
            return
                "The field “\(Self.shown(twice))” was sent twice and is read once, so nothing was done: "
                + "use the panel’s own links and forms."
        }
        return nil
    }

    /// Strict x-www-form-urlencoded decoding: nil for a broken escape or bytes that are not UTF-8.
    static func decode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The first escape that breaks `text`: "%zz", a "%" too near the end, or (when every
    /// escape is well formed) the run of escapes that is not UTF-8.
    private static func badEscape(in text: Substring) -> String {
        let characters = Array(text)
        var index = 0
        var run: (start: Int, end: Int)?
        while index < characters.count {
            guard characters[index] == "%" else {
                if let current = run, decode(Substring(String(characters[current.start..<current.end]))) == nil {
                    return String(characters[current.start..<current.end])
                }
                run = nil
                index += 1
                continue
            }
            let digits = characters[(index + 1)..<min(index + 3, characters.count)]
            guard digits.count == 2, digits.allSatisfy(\.isHexDigit) else { return "%" + String(digits.prefix(2)) }
            run = (run?.start ?? index, index + 3)
            index += 3
        }
        if let current = run { return String(characters[current.start..<current.end].prefix(24)) }
        return String(text.prefix(24))
    }

    private static func escapeSentence(_ subject: String, _ escape: String) -> String {
        "\(subject) holds “\(escape.prefix(24))”, which is not a valid escape (a “%” and two hex digits, "
            + "spelling UTF-8 text), so nothing was done. Check it and send it again."
    }

    /// A name as a sentence shows it: short and trimmed (the page escapes it).
    static func shown(_ name: String) -> String {
        String(TypedText.trimmed(name.prefix(40)))
    }
}

extension Request {
    /// This request's query string, read by the one form reader.
    var queryFields: FormFields { FormFields(uri.query ?? "") }

    /// This request's form body, read by the one form reader (the CSRF check has already
    /// collected it, so this reads it from memory).
    func formFields(upTo limit: Int = 64 * 1024) async throws -> FormFields {
        var request = self
        return FormFields(String(buffer: try await request.collectBody(upTo: limit)))
    }
}
