/// A campaign's title and body for one recipient: the template's variant for their
/// language when the campaign names a template, else the campaign's own text, which may
/// use the same placeholders.
public struct CampaignText: Sendable {
    /// Longest value a placeholder is filled with, in characters: a display name typed as a
    /// whole essay must not push a notification over the providers' 4 KB.
    public static let valueLimit = 64

    let own: PushTemplate
    let template: String?
    let library: PushTemplateLibrary

    /// Fails, with the sentence to show, when the campaign's own text is not a valid
    /// template or names a template that does not exist: found when composing, never when sending.
    public init(title: String, body: String, template: String?, library: PushTemplateLibrary) throws(TemplateError) {
        if let template, library.templates[template] == nil {
            let known = library.templates.keys.sorted().joined(separator: ", ")
            throw TemplateError("there is no template \"\(template)\"; there are \(known)")
        }
        let flatTitle = title.replacingOccurrences(of: "\r", with: "").replacingOccurrences(of: "\n", with: " ")
        own = try PushTemplate(name: "the campaign", language: "en", text: "title: \(flatTitle)\nbody: \(body)")
        self.template = template
        self.library = library
    }

    /// Values are cut to `valueLimit` characters; empty ones get their fallback. Plural
    /// forms follow the chosen template's language; the campaign's own text is English, so
    /// its plural forms follow English's rule whatever the recipient's locale.
    public func render(locale: String, values: [String: String]) -> (title: String, body: String) {
        let filled = renderReporting(locale: locale, values: values)
        return (filled.title, filled.body)
    }

    /// As `render`, and the placeholders that the recipient's variant uses whose value was
    /// empty or missing, so got their fallback: empty when every one had a value.
    public func renderReporting(locale: String, values: [String: String]) -> (
        title: String, body: String, fallbacks: Set<String>
    ) {
        let cut = values.mapValues { String($0.prefix(Self.valueLimit)) }
        let chosen = template.flatMap { library.template($0, locale: locale) } ?? own
        return chosen.renderReporting(cut, recipientLanguage: PushTemplateLibrary.language(ofLocale: locale))
    }

    /// The longest each placeholder can be filled with, for the worst-case payload size:
    /// every value at its limit in four-byte characters.
    public static var longestValues: [String: String] {
        PushTemplate.placeholders.mapValues { _ in String(repeating: "\u{1F600}", count: valueLimit) }
    }

    /// Whether any variant has a tag (filled with each recipient's values).
    public var isPersonal: Bool {
        variants.contains { $0.template.titleSource.contains("{{") || $0.template.bodySource.contains("{{") }
    }

    /// Whether recipients may get different texts: a tag, or a template in more than one
    /// language (a text without tags still goes out in each recipient's language).
    public var dependsOnRecipient: Bool {
        isPersonal || variants.count > 1
    }

    /// Every variant a recipient might get: the worst-case size is the largest of them.
    public var variants: [(language: String, template: PushTemplate)] {
        guard let template, let languages = library.templates[template] else { return [("en", own)] }
        return languages.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
