import Foundation
import PushTemplates
import TestSupport
import Testing

/// `{{plural COUNT "one" "other"}}`: the form by CLDR's cardinal rule of the template's
/// language, checked when read; and which placeholders a rendering filled with fallbacks.
@Suite(.timeLimit(.minutes(20))) struct PluralTests {
    /// CLDR's cardinal rules (cldr.unicode.org, Language Plural Rules) for integers:
    /// en, de, nl, es, it "one: n = 1"; pt "one: i = 0..1"; fr "one: i = 0,1". A value that
    /// is not an integer takes "other" here, and an unknown language English's rule.
    @Test(
        arguments: [
            ("en", "0", PluralCategory.other), ("en", "1", .one), ("en", "2", .other), ("en", "11", .other),
            ("en", "21", .other),
            ("en", "101", .other), ("en", "-1", .one), ("en", "01", .one),
            ("de", "0", .other), ("de", "1", .one), ("de", "2", .other),
            ("nl", "0", .other), ("nl", "1", .one), ("nl", "2", .other),
            ("es", "0", .other), ("es", "1", .one), ("es", "2", .other), ("es", "1000000", .other),
            ("it", "0", .other), ("it", "1", .one), ("it", "2", .other),
            ("pt", "0", .one), ("pt", "1", .one), ("pt", "2", .other), ("pt", "10", .other), ("pt", "1000000", .other),
            ("fr", "0", .one), ("fr", "1", .one), ("fr", "2", .other), ("fr", "100", .other),
            ("pt-BR", "0", .one), ("fr_CA", "1", .one), ("EN-gb", "1", .one),
            ("xx", "0", .other), ("xx", "1", .one), ("xx", "2", .other),
            ("en", "some", .other), ("en", "a few", .other), ("en", "", .other), ("en", "1.0", .other),
            ("en", "1.5", .other),
            ("en", "one", .other), ("pt", "alguns", .other), ("fr", "0.5", .other),
            ("en", "99999999999999999999999", .other),
        ] as [(String, String, PluralCategory)])
    func cldrCardinalRules(language: String, value: String, expected: PluralCategory) {
        #expect(PluralRules.category(of: value, language: language) == expected)
    }

    static func title(_ text: String, language: String, _ values: [String: String]) throws -> String {
        try PushTemplate(name: "t", language: language, text: "title: \(text)\nbody: b").render(values).title
    }

    @Test func theFormFollowsTheCountInTheTemplatesLanguage() throws {
        let items = "{{expiring_count}} {{plural expiring_count \"item\" \"items\"}}"
        #expect(try Self.title(items, language: "en", ["expiring_count": "0"]) == "0 items")
        #expect(try Self.title(items, language: "en", ["expiring_count": "1"]) == "1 item")
        #expect(try Self.title(items, language: "en", ["expiring_count": "2"]) == "2 items")
        #expect(try Self.title(items, language: "en", [:]) == "Some items", "the fallback is no integer: the plural")

        let itens = "{{expiring_count}} {{plural expiring_count \"item\" \"itens\"}}"
        #expect(try Self.title(itens, language: "pt", ["expiring_count": "0"]) == "0 item", "CLDR pt: 0 is \"one\"")
        #expect(try Self.title(itens, language: "pt", ["expiring_count": "1"]) == "1 item")
        #expect(try Self.title(itens, language: "pt", ["expiring_count": "2"]) == "2 itens")
        #expect(try Self.title(itens, language: "pt", [:]) == "Alguns itens", "Portuguese fallback, plural")

        let jours = "{{days_left}} {{plural days_left \"jour\" \"jours\"}}"
        #expect(try Self.title(jours, language: "fr", ["days_left": "0"]) == "0 jour")
        #expect(try Self.title(jours, language: "fr", ["days_left": "1"]) == "1 jour")
        #expect(try Self.title(jours, language: "fr", ["days_left": "2"]) == "2 jours")
        #expect(
            try Self.title(jours, language: "fr", ["days_left": " "]) == "A few jours", "no French fallbacks: English's"
        )

        let tage = "{{document_days_left}} {{plural document_days_left \"Tag\" \"Tage\"}}"
        #expect(try Self.title(tage, language: "de", ["document_days_left": "0"]) == "0 Tage")
        #expect(try Self.title(tage, language: "de", ["document_days_left": "1"]) == "1 Tag")

        let documents = "{{expiring_documents}} document{{plural expiring_documents \"\" \"s\"}}"
        #expect(try Self.title(documents, language: "en", ["expiring_documents": "1"]) == "1 document", "an empty form")
        #expect(try Self.title(documents, language: "en", ["expiring_documents": "30"]) == "30 documents")
    }

    @Test func pluralTagsWorkInSectionsAndBesideEveryOtherTag() throws {
        let template = try PushTemplate(
            name: "t", language: "en",
            text: """
                title: {{! a comment }}{{{display_name}}}: {{#plan}}{{days_left}} \
                {{plural days_left "day" "days"}}{{/plan}}
                body: {{^plan}}never{{/plan}}{{&first_expiring_item}} in {{ plural  days_left  "day"   "days" }}, \
                {{plural expiring_count "it" "they"}}
                """)
        let filled = template.render([
            "display_name": "A & B", "plan": "free", "days_left": "1", "first_expiring_item": "<Milk>",
            "expiring_count": "3",
        ])
        #expect(filled.title == "A & B: 1 day")
        #expect(filled.body == "<Milk> in day, they")
    }

    @Test func ownTextIsEnglishSoItsPluralsFollowEnglishForEveryRecipient() throws {
        let library = try PushTemplateLibrary(folder: PushTemplateTests.folder)
        let text = try CampaignText(
            title: "{{expiring_count}} {{plural expiring_count \"item\" \"items\"}} left",
            body: "in {{days_left}} {{plural days_left \"day\" \"days\"}}", template: nil, library: library)
        #expect(
            text.render(locale: "pt-PT", values: ["expiring_count": "0", "days_left": "1"]) == (
                title: "0 items left", body: "in 1 day"
            ))
        #expect(
            text.render(locale: "fr", values: ["expiring_count": "1", "days_left": "0"]) == (
                title: "1 item left", body: "in 0 days"
            ))
        #expect(
            text.render(locale: "pt", values: [:]) == (title: "Some items left", body: "in a few days"),
            "English fallbacks")
        #expect(text.isPersonal)
    }

    @Test(arguments: [
        ("{{plural expiring_count \"item\"}}", "has 1 form but needs two, the singular and the plural"),
        ("{{plural expiring_count \"item\" \"items\" \"itemz\"}}", "has 3 forms but needs two"),
        ("{{plural expiring_count}}", "has 0 forms but needs two"),
        ("{{plural}}", "needs a count placeholder and two forms in quotes"),
        ("{{plural \"item\" \"items\"}}", "needs a count placeholder and two forms in quotes"),
        ("{{plural expiring_count \"item\" \"items}}", "a quote is never closed"),
        ("{{plural expiring_count \"item \"items\"}}", "a quote is never closed"),
        ("{{plural expiring_count \"{{display_name}}\" \"b\"}}", "a quote is never closed"),
        ("{{plural expiring_count \"{\" \"b\"}}", "a form cannot hold a placeholder or braces"),
        ("{{plural expiring_count item items}}", "every form is written in straight double quotes"),
        (
            "{{plural expiring_count \u{201C}item\u{201D} \u{201C}items\u{201D}}}",
            "every form is written in straight double quotes"
        ),
        ("{{plural nickname \"a\" \"b\"}}", "unknown placeholder \"nickname\""),
        (
            "{{plural display_name \"a\" \"b\"}}",
            "\"display_name\" in {{plural display_name \"a\" \"b\"}} is not a count"
        ),
        (
            "{{plural first_expiring_document \"a\" \"b\"}}",
            """
            is not a count; plural forms follow one of days_left, document_days_left, expiring_count, expiring_documents
            """
        ),
        ("{{#plural expiring_count \"a\" \"b\"}}x{{/plural}}", "unknown placeholder"),
        ("{{plurals expiring_count \"a\" \"b\"}}", "is not a placeholder"),
        ("{{plural expiring_count \"a\" \"b\"", "is never closed"),
    ])
    func malformedPluralTagsAreRefusedWithASentence(tag: String, sentence: String) {
        for text in ["title: x \(tag)\nbody: b", "title: t\nbody: x \(tag) y"] {
            do {
                _ = try PushTemplate(name: "t", language: "en", text: text)
                Issue.record("accepted: \(text)")
            } catch {
                #expect(error.description.contains(sentence), "\(error.description)")
            }
        }
    }

    @Test func aMalformedPluralTagIsNamedInFullAndRefusedWhenComposed() throws {
        #expect(
            throws: TemplateError(
                """
                t (en) title: {{plural expiring_count \"item\"}} has 1 form but needs two, the singular and the \
                plural, e.g. {{plural expiring_count \"item\" \"items\"}}
                """
            )
        ) {
            try PushTemplate(name: "t", language: "en", text: "title: {{plural expiring_count \"item\"}}\nbody: b")
        }
        let library = try PushTemplateLibrary(folder: PushTemplateTests.folder)
        #expect(
            throws: TemplateError(
                """
                the campaign (en) body: in {{plural days_left \"day\" \"days}} a quote is never closed (a form cannot \
                hold a placeholder or braces)
                """
            )
        ) {
            try CampaignText(
                title: "t", body: "in {{plural days_left \"day\" \"days}}", template: nil, library: library)
        }
    }

    /// Every shipped template in every language, as a recipient reads it: literal text.
    static let values = [
        "display_name": "Ana", "first_expiring_item": "Milk", "first_expiring_document": "Passport", "plan": "free",
    ]
    static let counts = ["expiring_count", "days_left", "expiring_documents", "document_days_left"]
    static let expected: [String: [String: [String: (title: String, body: String)]]] = [
        "expiring-soon": [
            "en": [
                "1": ("Hi Ana, 1 item expires soon", "Milk expires in 1 day. Open Expiry Tracker to plan your meals."),
                "2": ("Hi Ana, 2 items expire soon", "Milk expires in 2 days. Open Expiry Tracker to plan your meals."),
                "": (
                    "Hi there, some items expire soon",
                    "An item expires in a few days. Open Expiry Tracker to plan your meals."
                ),
            ],
            "pt": [
                "1": (
                    "Ana, 1 item expira em breve",
                    "Milk expira em 1 dia. Abra o Expiry Tracker para planear as refeições."
                ),
                "2": (
                    "Ana, 2 itens expiram em breve",
                    "Milk expira em 2 dias. Abra o Expiry Tracker para planear as refeições."
                ),
                "": (
                    "Olá, alguns itens expiram em breve",
                    "Um item expira em alguns dias. Abra o Expiry Tracker para planear as refeições."
                ),
            ],
        ],
        "documents-expiring": [
            "en": [
                "1": (
                    "Hi Ana, 1 document expires within 30 days",
                    "Passport expires in 1 day. Open Expiry Tracker to renew it in time."
                ),
                "2": (
                    "Hi Ana, 2 documents expire within 30 days",
                    "Passport expires in 2 days. Open Expiry Tracker to renew it in time."
                ),
                "": (
                    "Hi there, some documents expire within 30 days",
                    "A document expires in a few days. Open Expiry Tracker to renew it in time."
                ),
            ],
            "pt": [
                "1": (
                    "Ana, 1 documento expira nos próximos 30 dias",
                    "Passport expira em 1 dia. Abra o Expiry Tracker para o renovar a tempo."
                ),
                "2": (
                    "Ana, 2 documentos expiram nos próximos 30 dias",
                    "Passport expira em 2 dias. Abra o Expiry Tracker para o renovar a tempo."
                ),
                "": (
                    "Olá, alguns documentos expiram nos próximos 30 dias",
                    "Um documento expira em alguns dias. Abra o Expiry Tracker para o renovar a tempo."
                ),
            ],
        ],
        "go-premium": [
            "en": [
                "1": (
                    "Hi Ana, you're tracking a lot",
                    "Your free plan holds 50 items. Premium tracks as many as you like."
                ),
                "2": (
                    "Hi Ana, you're tracking a lot",
                    "Your free plan holds 50 items. Premium tracks as many as you like."
                ),
                "": (
                    "Hi there, you're tracking a lot",
                    "Your free plan holds 50 items. Premium tracks as many as you like."
                ),
            ]
        ],
    ]

    @Test func everyShippedTemplateReadsRightInEveryLanguageWithOneTwoOrNoCount() throws {
        let library = try PushTemplateLibrary(folder: PushTemplateTests.folder)
        #expect(
            library.templates.mapValues { Set($0.keys) } == Self.expected.mapValues { Set($0.keys) },
            "a text for every shipped file")
        let singularAfterOtherNumbers = /\b(0|[2-9]|\d\d+) (item|day|dia|documento?)\b/
        for (name, languages) in library.templates.sorted(by: { $0.key < $1.key }) {
            for (language, template) in languages.sorted(by: { $0.key < $1.key }) {
                for count in ["1", "2", ""] {
                    var values = count.isEmpty ? [:] : Self.values
                    for key in Self.counts where !count.isEmpty { values[key] = count }
                    let filled = template.render(values)
                    let text = filled.title + "\n" + filled.body
                    #expect(
                        filled == Self.expected[name]?[language]?[count] ?? ("?", "?"),
                        "\(name).\(language) with \(count.isEmpty ? "no values" : count)")
                    for wrong in [
                        "1 items", "1 days", "1 itens", "1 dias", "1 documents", "1 documentos", "1 item expire ",
                        "1 document expire ",
                    ] {
                        #expect(!text.contains(wrong), "\(name).\(language): \(text)")
                    }
                    #expect(text.firstMatch(of: singularAfterOtherNumbers) == nil, "\(name).\(language): \(text)")
                    if language == "pt" {
                        for english in ["there", "some", "a few", "an item", "a document", "free"] {
                            #expect(!text.contains(english), "\(name).pt falls back in English: \(text)")
                        }
                    }
                }
            }
        }
    }

    @Test func fallbacksNameExactlyThePlaceholdersTheVariantUses() throws {
        let library = try PushTemplateLibrary(folder: PushTemplateTests.folder)
        let soon = try #require(library.template("expiring-soon", locale: "en"))
        let full = ["display_name": "Ana", "expiring_count": "2", "first_expiring_item": "Milk", "days_left": "3"]
        #expect(soon.renderReporting(full).fallbacks == [], "plan is empty but this template does not use it")
        #expect(
            soon.renderReporting(["display_name": "Ana", "days_left": "  "]).fallbacks == [
                "expiring_count", "first_expiring_item", "days_left",
            ])
        #expect(soon.placeholdersUsed == ["display_name", "expiring_count", "first_expiring_item", "days_left"])
        let reported = soon.renderReporting(["display_name": "Ana"])
        #expect((reported.title, reported.body) == soon.render(["display_name": "Ana"]))

        let documents = try #require(library.template("documents-expiring", locale: "pt-PT"))
        #expect(
            documents.renderReporting([:]).fallbacks == [
                "display_name", "expiring_documents", "first_expiring_document", "document_days_left",
            ])
        let premium = try #require(library.template("go-premium", locale: "en"))
        #expect(premium.renderReporting(["expiring_count": ""]).fallbacks == ["display_name", "plan"])

        let onlyInPlural = try PushTemplate(
            name: "t", language: "en",
            text: "title: {{plural expiring_count \"item\" \"items\"}}\nbody: {{! days_left }}b")
        #expect(
            onlyInPlural.renderReporting([:]).fallbacks == ["expiring_count"],
            "in a plural tag it counts; in a comment it does not")
        let sections = try PushTemplate(
            name: "t", language: "en", text: "title: {{#plan}}on{{/plan}}\nbody: {{^display_name}}x{{/display_name}}")
        #expect(sections.renderReporting(["plan": "free"]).fallbacks == ["display_name"])
        let plain = try PushTemplate(name: "t", language: "en", text: "title: Sale\nbody: Today only")
        #expect(plain.renderReporting([:]).fallbacks == [])
    }

    @Test func aCampaignReportsTheFallbacksOfTheRecipientsVariant() throws {
        let library = try PushTemplateLibrary(folder: PushTemplateTests.folder)
        let text = try CampaignText(title: "ignored", body: "ignored", template: "expiring-soon", library: library)
        let portuguese = text.renderReporting(
            locale: "pt-BR", values: ["display_name": "Ana", "expiring_count": "1", "days_left": "1"])
        #expect(portuguese.title == "Ana, 1 item expira em breve" && portuguese.fallbacks == ["first_expiring_item"])
        #expect(
            text.renderReporting(locale: "de", values: [:]).fallbacks == [
                "display_name", "expiring_count", "first_expiring_item", "days_left",
            ])

        let own = try CampaignText(title: "Hi {{display_name}}", body: "Sale", template: nil, library: library)
        #expect(
            own.renderReporting(locale: "pt", values: ["display_name": "Ana"]) == (
                title: "Hi Ana", body: "Sale", fallbacks: []
            ))
        #expect(
            own.renderReporting(locale: "pt", values: ["display_name": "\n"]) == (
                title: "Hi there", body: "Sale", fallbacks: ["display_name"]
            ))
        #expect(
            own.render(locale: "pt", values: [:]) == (title: "Hi there", body: "Sale"),
            "render is renderReporting without the names")
    }
}
