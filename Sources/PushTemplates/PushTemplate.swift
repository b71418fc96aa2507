import Foundation
import Mustache

/// A campaign message from `Templates/NAME.LANG.mustache`: a title line and a body, with
/// placeholders filled per recipient. Every problem is found when the template is read or
/// composed, never when sending: a broken template, an unknown placeholder, a tag this
/// panel does not allow (partials, lambdas, pragmas).
public struct PushTemplate: Sendable {
    /// What a template may name, and what an empty value becomes.
    public static let placeholders: [String: String] = [
        "display_name": "there",
        "expiring_count": "some",
        "first_expiring_item": "an item",
        "days_left": "a few",
        "plan": "free",
    ]

    public let name: String
    public let language: String
    public let titleSource: String
    public let bodySource: String
    private let title: MustacheTemplate
    private let body: MustacheTemplate

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
        title = try Self.compile(titleSource, what: "\(name) (\(language)) title")
        body = try Self.compile(bodySource, what: "\(name) (\(language)) body")
        if titleSource.isEmpty || bodySource.isEmpty { throw TemplateError("\(name) (\(language)) has an empty title or body") }
    }

    /// Text in, text out: no HTML escaping, since a notification is plain text.
    static func compile(_ source: String, what: String) throws(TemplateError) -> MustacheTemplate {
        guard let found = tags(in: source) else { throw TemplateError("\(what): a \"{{\" is never closed") }
        for tag in found {
            let kind = tag.first.map(String.init) ?? ""
            switch kind {
            case "!": continue
            case "{", "&", "#", "^", "/":
                let name = tag.dropFirst().trimmingCharacters(in: CharacterSet(charactersIn: " }"))
                guard placeholders[name] != nil else { throw TemplateError("\(what): unknown placeholder \"\(name)\"; known are \(known)") }
            default:
                let name = tag.trimmingCharacters(in: .whitespaces)
                guard placeholders[name] == nil else { continue }
                if !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) {
                    throw TemplateError("\(what): unknown placeholder \"\(name)\"; known are \(known)")
                }
                throw TemplateError("\(what): \"{{\(tag)}}\" is not a placeholder; known are \(known)")
            }
        }
        do {
            return try MustacheTemplate(string: "{{% CONTENT_TYPE: TEXT}}" + source)
        } catch {
            throw TemplateError("\(what) is not a valid template: a section is not closed, or closed by another name")
        }
    }

    static var known: String { placeholders.keys.sorted().joined(separator: ", ") }

    /// The text between each `{{` and its `}}` (a triple brace keeps its inner `{`); nil
    /// when one is never closed.
    static func tags(in source: String) -> [String]? {
        var tags: [String] = []
        var rest = source[...]
        while let open = rest.range(of: "{{") {
            let after = rest[open.upperBound...]
            guard let close = after.range(of: "}}") else { return nil }
            var inner = String(after[..<close.lowerBound])
            var end = close.upperBound
            if inner.hasPrefix("{"), after[close.upperBound...].hasPrefix("}") {
                inner += "}"
                end = after.index(after: close.upperBound)
            }
            tags.append(inner)
            rest = after[end...]
        }
        return tags
    }

    /// Fills the placeholders; an empty or missing value gets its fallback.
    public func render(_ values: [String: String]) -> (title: String, body: String) {
        var filled: [String: String] = [:]
        for (key, fallback) in Self.placeholders {
            let value = values[key]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            filled[key] = value.isEmpty ? fallback : value
        }
        return (title.render(filled), body.render(filled))
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
            let template = try PushTemplate(name: String(parts[0]), language: String(parts[1]), text: String(decoding: data, as: UTF8.self))
            templates[template.name, default: [:]][template.language] = template
        }
        for (name, languages) in templates where languages["en"] == nil {
            throw TemplateError("\(name) has no English version (\(name).en.mustache), which every other language falls back to")
        }
        self.templates = templates
    }

    /// The variant for a locale such as `pt-BR` (its language, `pt`), else English.
    public func template(_ name: String, locale: String) -> PushTemplate? {
        guard let languages = templates[name] else { return nil }
        let language = locale.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? "en"
        return languages[language] ?? languages["en"]
    }
}
