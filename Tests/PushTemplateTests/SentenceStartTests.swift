import Foundation
import PushTemplates
import Testing

/// Issue 46, point 1: a draft whose body opened with a placeholder previewed "some items
/// expire soon" for every recipient without an item count. A value or fallback that opens
/// a sentence is capitalised as the recipient's language does it; the expectations are
/// Unicode's title-case mappings and each language's own rules, not the code's.
@Suite(.timeLimit(.minutes(20))) struct SentenceStartTests {
    static func template(_ body: String, language: String = "en") throws -> PushTemplate {
        try PushTemplate(name: "t", language: language, text: "title: We miss you, {{display_name}}\nbody: \(body)")
    }

    @Test func aFallbackThatOpensTheBodyIsCapitalised() throws {
        let filled = try Self.template("{{expiring_count}} items expire soon. Take a look.").render([
            "display_name": "Søren Dubois"
        ])
        #expect(filled.title == "We miss you, Søren Dubois")
        #expect(filled.body == "Some items expire soon. Take a look.")
    }

    @Test func aValueAfterAFullStopIsCapitalisedAndOneMidSentenceIsNot() throws {
        let template = try Self.template("Look: {{first_expiring_item}}. {{first_expiring_item}} expires, {{plan}}!")
        let filled = template.render(["first_expiring_item": "milk", "plan": "free"])
        #expect(filled.body == "Look: milk. Milk expires, free!")
        let question = try Self.template("Ready? {{display_name}}, «{{first_expiring_item}}» is due")
        #expect(
            question.render(["display_name": "ana", "first_expiring_item": "eggs"]).body == "Ready? Ana, «eggs» is due")
        let quoted = try Self.template("Note. «{{first_expiring_item}}» is due\n{{plan}} plan")
        #expect(
            quoted.render(["first_expiring_item": "eggs", "plan": "free"]).body == "Note. «Eggs» is due\nFree plan")
    }

    @Test(arguments: [
        // Turkish and Azeri: dotted i keeps its dot as a capital.
        ("tr-TR", "ilaç", "İlaç"),
        ("az", "ilk", "İlk"),
        ("en-GB", "ilk", "Ilk"),
        // ß has no single capital: its title case is "Ss".
        ("de-DE", "ßuppe", "Ssuppe"),
        // Greek: only the first letter changes; a final sigma stays final.
        ("el", "σοφίας", "Σοφίας"),
        ("el", "άρτος", "Άρτος"),
        // Dutch capitalises the digraph ij as one letter.
        ("nl", "ijs", "IJs"),
        // A title-case digraph is not its capital.
        ("hr", "ǆem", "ǅem"),
        // Scripts without case are left alone.
        ("zh-CN", "牛奶", "牛奶"),
        ("ar", "حليب", "حليب"),
        ("ja", "ミルク", "ミルク"),
        // A digit, an emoji: nothing to capitalise.
        ("en", "2% milk", "2% milk"),
        ("en", "🥛 milk", "🥛 milk"),
    ])
    func capitalisedAsTheRecipientsLanguageDoesIt(locale: String, value: String, expected: String) throws {
        let text = try CampaignText(
            title: "Hello", body: "{{first_expiring_item}} expires soon", template: nil,
            library: PushTemplateLibrary())
        let filled = text.render(locale: locale, values: ["first_expiring_item": value])
        #expect(filled.body == "\(expected) expires soon")
    }

    @Test func theTemplatesOwnTextAndTheRestOfAValueAreLeftAsWritten() throws {
        let template = try Self.template("{{first_expiring_item}} is due. then {{days_left}} days")
        let filled = template.render(["first_expiring_item": "iPhone case. eBay parcel", "days_left": "two"])
        // The value's own later sentence and the template's lower-case word are not ours to change.
        #expect(filled.body == "IPhone case. eBay parcel is due. then two days")
        // A title that opens with a value is a sentence start too.
        let title = try PushTemplate(name: "t", language: "en", text: "title: {{display_name}}, hi\nbody: x")
        #expect(title.render(["display_name": "ana"]).title == "Ana, hi")
        #expect(title.render([:]).title == "There, hi")
    }

    @Test func capitalisingDoesNotChangeWhichPluralFormIsChosen() throws {
        let template = try Self.template("{{expiring_count}} {{plural expiring_count \"item\" \"items\"}} left")
        #expect(template.render(["expiring_count": "1"]).body == "1 item left")
        #expect(template.render([:]).body == "Some items left")
    }

    @Test func markersInAValueCannotForgeASentenceStart() throws {
        // The noncharacters the renderer marks values with are taken out of what users typed.
        let template = try Self.template("Hi {{display_name}} and {{first_expiring_item}}")
        let (open, close) = (String(Unicode.Scalar(0xFDD0 as UInt32)!), String(Unicode.Scalar(0xFDD1 as UInt32)!))
        let filled = template.render(["display_name": "a\(open)b\(close)", "first_expiring_item": "\(close)milk"])
        #expect(filled.body == "Hi ab and milk")
    }
}
