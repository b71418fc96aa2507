import Foundation
import PushTemplates
import TestSupport
import Testing

/// What one recipient gets: a template's variant for their language, or the campaign's own
/// text, with values cut to a length no display name can push past 4 KB.
@Suite(.timeLimit(.minutes(20))) struct CampaignTextTests {
    static let library = Result { try PushTemplateLibrary(folder: PushTemplateTests.folder) }

    @Test func aTemplateSendsEachRecipientTheirLanguageAndOwnTextItsPlaceholders() throws {
        let library = try Self.library.get()
        let text = try CampaignText(title: "ignored", body: "ignored", template: "expiring-soon", library: library)
        let values = [
            "display_name": "Ana", "expiring_count": "2", "first_expiring_item": "Iogurte", "days_left": "3",
            "plan": "free",
        ]
        let portuguese = text.render(locale: "pt-BR", values: values)
        let english = text.render(locale: "de", values: values)
        #expect(
            portuguese.title != english.title && portuguese.title.contains("Ana")
                && english.title == "Hi Ana, 2 items expire soon")
        #expect(text.variants.map(\.language) == ["en", "pt"] && text.isPersonal)

        let own = try CampaignText(
            title: "Hi {{display_name}}", body: "Plan: {{plan}}", template: nil, library: library)
        #expect(own.render(locale: "pt", values: [:]) == (title: "Hi there", body: "Plan: free"))
        let plain = try CampaignText(title: "Sale", body: "Today only", template: nil, library: library)
        #expect(!plain.isPersonal, "the same for everyone: no recipient's values are read")
    }

    @Test func valuesAreCutSoThatNoRecipientCanMakeThePushTooLarge() throws {
        let text = try CampaignText(
            title: "Hi {{display_name}}", body: "b", template: nil, library: try Self.library.get())
        let essay = String(repeating: "\u{1F600}", count: 5_000)
        let filled = text.render(locale: "en", values: ["display_name": essay])
        #expect(filled.title.count == 3 + CampaignText.valueLimit)
        #expect(
            CampaignText.longestValues.values.allSatisfy {
                $0.count == CampaignText.valueLimit && $0.utf8.count == 4 * CampaignText.valueLimit
            })
    }

    @Test func anUnknownTemplateOrABrokenOwnTextIsRefusedWhenComposed() throws {
        let library = try Self.library.get()
        #expect(throws: TemplateError.self) {
            try CampaignText(title: "t", body: "b", template: "no-such", library: library)
        }
        #expect(throws: TemplateError.self) {
            try CampaignText(title: "Hi {{nickname}}", body: "b", template: nil, library: library)
        }
        #expect(throws: TemplateError.self) {
            try CampaignText(title: "Hi", body: "{{#plan}}open", template: nil, library: library)
        }
    }
}
