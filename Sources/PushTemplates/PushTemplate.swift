import Foundation
import Mustache

/// A campaign message from `Templates/NAME.LANG.mustache`: a title line and a body, with
/// placeholders filled per recipient. Every problem is found when the template is read or
/// composed, never when sending: a broken template, an unknown placeholder, a malformed
/// plural tag, a tag this panel does not allow (partials, lambdas, pragmas).
///
/// `{{plural expiring_count "item" "items"}}` writes the form that the count placeholder's
/// value takes in the template's language (see `PluralRules`); it is replaced by a plain
/// variable before swift-mustache compiles the text, so it works inside sections too.
public struct PushTemplate: Sendable {
    /// What a template may name, and what an empty value becomes (in English; see
    /// `localizedFallbacks` for other languages).
    public static let placeholders: [String: String] = [
        "display_name": "there",
        "expiring_count": "some",
        "first_expiring_item": "an item",
        "days_left": "a few",
        "plan": "free",
        "expiring_documents": "some",
        "first_expiring_document": "a document",
        "document_days_left": "a few",
    ]

    /// The placeholders holding a count, which `{{plural NAME "one" "other"}}` may follow.
    public static let countPlaceholders: Set<String> = [
        "expiring_count", "days_left", "expiring_documents", "document_days_left",
    ]

    /// Fallbacks in a template's own language, by language then placeholder; a placeholder
    /// or language missing here falls back to `placeholders` (English). Portuguese
    /// `display_name` is written for the start of a title before a comma ("Olá, alguns
    /// itens expiram em breve"), as English "there" is for after "Hi".
    public static let localizedFallbacks: [String: [String: String]] = [
        "pt": [
            "display_name": "Olá",
            "expiring_count": "alguns",
            "first_expiring_item": "um item",
            "days_left": "alguns",
            "plan": "gratuito",
            "expiring_documents": "alguns",
            "first_expiring_document": "um documento",
            "document_days_left": "alguns",
        ]
    ]

    /// What each placeholder becomes when its value is empty, in a template of this language.
    public static func fallbacks(language: String) -> [String: String] {
        placeholders.merging(localizedFallbacks[language.lowercased()] ?? [:]) { _, localized in localized }
    }

    public let name: String
    public let language: String
    public let titleSource: String
    public let bodySource: String
    /// Every placeholder the title or body names: in a tag, a section or a plural tag.
    public let placeholdersUsed: Set<String>
    private let title: Compiled
    private let body: Compiled
    private let fallbackValues: [String: String]

    /// `title: ...` on one line, then `body: ...` to the end; `{{! comments }}` anywhere.
    public init(name: String, language: String, text: String) throws(TemplateError) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let titleIndex = lines.firstIndex(where: { $0.hasPrefix("title:") }),
            let bodyIndex = lines.firstIndex(where: { $0.hasPrefix("body:") }), bodyIndex > titleIndex
        else { throw TemplateError("\(name) (\(language)) needs a line \"title: ...\" and then \"body: ...\"") }
        titleSource = String(lines[titleIndex].dropFirst("title:".count)).trimmingCharacters(in: .whitespaces)
        bodySource = ([String(lines[bodyIndex].dropFirst("body:".count))] + lines[(bodyIndex + 1)...].map(String.init))
            .joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        self.name = name
        self.language = language
        title = try Self.compile(titleSource, what: "\(name) (\(language)) title", part: "title")
        body = try Self.compile(bodySource, what: "\(name) (\(language)) body", part: "body")
        if titleSource.isEmpty || bodySource.isEmpty {
            throw TemplateError("\(name) (\(language)) has an empty title or body")
        }
        placeholdersUsed = title.used.union(body.used)
        fallbackValues = Self.fallbacks(language: language)
    }

    /// A title or body ready to fill: swift-mustache's template, and the plural tags that
    /// its variables `_plural_PART_N` stand for.
    struct Compiled: Sendable {
        let template: MustacheTemplate
        let plurals: [(key: String, tag: PluralTag)]
        let used: Set<String>
    }

    /// `{{plural COUNT "one" "other"}}`: the form for CLDR's "one", and for everything else.
    struct PluralTag: Sendable, Equatable {
        let count: String
        let one: String
        let other: String
    }

    /// Text in, text out: no HTML escaping, since a notification is plain text.
    static func compile(_ source: String, what: String, part: String) throws(TemplateError) -> Compiled {
        guard let found = scan(source) else { throw TemplateError("\(what): a \"{{\" is never closed") }
        var used: Set<String> = []
        var plurals: [(key: String, tag: PluralTag)] = []
        var rewritten = ""
        var copied = source.startIndex
        for (tag, range) in found {
            let kind = tag.first.map(String.init) ?? ""
            switch kind {
            case "!": continue
            case "{", "&", "#", "^", "/":
                let name = tag.dropFirst().trimmingCharacters(in: CharacterSet(charactersIn: " }"))
                guard placeholders[name] != nil else {
                    throw TemplateError("\(what): unknown placeholder \"\(name)\"; known are \(known)")
                }
                used.insert(name)
            default:
                let name = tag.trimmingCharacters(in: .whitespaces)
                if placeholders[name] != nil {
                    used.insert(name)
                    continue
                }
                if name.hasPrefix("plural"), name.dropFirst("plural".count).first?.isWhitespace ?? true {
                    let plural = try parsePlural(tag, what: what)
                    used.insert(plural.count)
                    let key = "_plural_\(part)_\(plurals.count)"
                    plurals.append((key, plural))
                    rewritten += source[copied..<range.lowerBound] + "{{\(key)}}"
                    copied = range.upperBound
                    continue
                }
                if !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) {
                    throw TemplateError("\(what): unknown placeholder \"\(name)\"; known are \(known)")
                }
                throw TemplateError("\(what): \"{{\(tag)}}\" is not a placeholder; known are \(known)")
            }
        }
        rewritten += source[copied...]
        do {
            return Compiled(
                template: try MustacheTemplate(string: "{{% CONTENT_TYPE: TEXT}}" + rewritten), plurals: plurals,
                used: used)
        } catch {
            throw TemplateError("\(what) is not a valid template: a section is not closed, or closed by another name")
        }
    }

    static var known: String { placeholders.keys.sorted().joined(separator: ", ") }
    static var knownCounts: String { countPlaceholders.sorted().joined(separator: ", ") }
    static let pluralExample = "{{plural expiring_count \"item\" \"items\"}}"

    /// The words of a plural tag: `plural`, a count placeholder, then exactly two forms in
    /// straight double quotes, which may be empty but hold no quote or brace.
    static func parsePlural(_ tag: String, what: String) throws(TemplateError) -> PluralTag {
        enum Word {
            case bare(String)
            case quoted(String)
        }
        let shown = "{{\(tag)}}"
        var words: [Word] = []
        var rest = Substring(tag)
        while let start = rest.firstIndex(where: { !$0.isWhitespace }) {
            rest = rest[start...]
            if rest.first == "\"" {
                let inside = rest.dropFirst()
                guard let close = inside.firstIndex(of: "\"") else {
                    throw TemplateError(
                        "\(what): in \(shown) a quote is never closed (a form cannot hold a placeholder or braces)")
                }
                words.append(.quoted(String(inside[..<close])))
                rest = inside[inside.index(after: close)...]
            } else {
                let end = rest.firstIndex(where: { $0.isWhitespace || $0 == "\"" }) ?? rest.endIndex
                words.append(.bare(String(rest[..<end])))
                rest = rest[end...]
            }
        }
        guard words.count >= 2, case .bare(let count) = words[1] else {
            throw TemplateError(
                "\(what): \(shown) needs a count placeholder and two forms in quotes, e.g. \(pluralExample)")
        }
        guard placeholders[count] != nil else {
            throw TemplateError("\(what): unknown placeholder \"\(count)\" in \(shown); known are \(known)")
        }
        guard countPlaceholders.contains(count) else {
            throw TemplateError(
                "\(what): \"\(count)\" in \(shown) is not a count; plural forms follow one of \(knownCounts)")
        }
        var forms: [String] = []
        for word in words.dropFirst(2) {
            guard case .quoted(let form) = word else {
                throw TemplateError(
                    "\(what): in \(shown) every form is written in straight double quotes, e.g. \(pluralExample)")
            }
            guard !form.contains(where: { $0 == "{" || $0 == "}" }) else {
                throw TemplateError("\(what): in \(shown) a form cannot hold a placeholder or braces")
            }
            forms.append(form)
        }
        guard forms.count == 2 else {
            let has = "\(forms.count) form\(forms.count == 1 ? "" : "s")"
            throw TemplateError(
                "\(what): \(shown) has \(has) but needs two, the singular and the plural, e.g. \(pluralExample)")
        }
        return PluralTag(count: count, one: forms[0], other: forms[1])
    }

    /// The text between each `{{` and its `}}` (a triple brace keeps its inner `{`), with
    /// the range of the whole tag; nil when one is never closed.
    static func scan(_ source: String) -> [(tag: String, range: Range<String.Index>)]? {
        var tags: [(tag: String, range: Range<String.Index>)] = []
        var rest = source[...]
        while let open = rest.range(of: "{{") {
            let after = source[open.upperBound...]
            guard let close = after.range(of: "}}") else { return nil }
            var inner = String(after[..<close.lowerBound])
            var end = close.upperBound
            if inner.hasPrefix("{"), source[close.upperBound...].hasPrefix("}") {
                inner += "}"
                end = source.index(after: close.upperBound)
            }
            tags.append((inner, open.lowerBound..<end))
            rest = source[end...]
        }
        return tags
    }

    /// Fills the placeholders; an empty or missing value gets its fallback. `recipientLanguage`
    /// (the template's own when nil) capitalises a value that opens a sentence.
    public func render(_ values: [String: String], recipientLanguage: String? = nil) -> (title: String, body: String) {
        let filled = renderReporting(values, recipientLanguage: recipientLanguage)
        return (filled.title, filled.body)
    }

    /// Fills the placeholders, and names those this template uses (in its title or body,
    /// a section or a plural tag) whose value was empty or missing, so got their fallback.
    public func renderReporting(_ values: [String: String], recipientLanguage: String? = nil) -> (
        title: String, body: String, fallbacks: Set<String>
    ) {
        var filled: [String: String] = [:]
        var fellBack: Set<String> = []
        for (key, fallback) in fallbackValues {
            let value = SentenceStart.unmarked(values[key]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
            filled[key] = value.isEmpty ? fallback : value
            if value.isEmpty, placeholdersUsed.contains(key) { fellBack.insert(key) }
        }
        for (key, plural) in title.plurals + body.plurals {
            let category = PluralRules.category(of: filled[plural.count] ?? "", language: language)
            filled[key] = category == .one ? plural.one : plural.other
        }
        // Marked only now, so that the plural rules read the values themselves.
        for key in fallbackValues.keys { filled[key] = filled[key].map(SentenceStart.marked) }
        let casing = recipientLanguage ?? language
        return (
            SentenceStart.apply(title.template.render(filled), language: casing),
            SentenceStart.apply(body.template.render(filled), language: casing), fellBack
        )
    }
}

public struct TemplateError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Every template in a folder, by name and language.
public struct PushTemplateLibrary: Sendable {
    public let templates: [String: [String: PushTemplate]]

    /// By name, then language.
    public init(templates: [String: [String: PushTemplate]] = [:]) {
        self.templates = templates
    }

    /// Files named `NAME.LANG.mustache`; a file that does not read is an error naming it.
    public init(folder: URL) throws(TemplateError) {
        var templates: [String: [String: PushTemplate]] = [:]
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for file in files.sorted() where file.hasSuffix(".mustache") {
            let parts = file.dropLast(".mustache".count).split(separator: ".")
            guard parts.count == 2, !parts[0].isEmpty, parts[1].count == 2 else {
                throw TemplateError("\(file) is not named NAME.LANG.mustache (LANG: two letters, e.g. en)")
            }
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(file).path) else {
                throw TemplateError("\(file) cannot be read")
            }
            let template = try PushTemplate(
                name: String(parts[0]), language: String(parts[1]), text: String(decoding: data, as: UTF8.self))
            templates[template.name, default: [:]][template.language] = template
        }
        for (name, languages) in templates where languages["en"] == nil {
            throw TemplateError(
                "\(name) has no English version (\(name).en.mustache), which every other language falls back to")
        }
        self.templates = templates
    }

    /// The variant for a locale such as `pt-BR` (its language, `pt`), else English.
    public func template(_ name: String, locale: String) -> PushTemplate? {
        guard let languages = templates[name] else { return nil }
        return languages[Self.language(ofLocale: locale)] ?? languages["en"]
    }

    /// The language part of a locale such as `pt-BR` or `tr_TR`, lower case.
    public static func language(ofLocale locale: String) -> String {
        locale.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? "en"
    }
}
