import Foundation
import PushTemplates
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(20))) struct PushTemplateTests {
    static let folder = TestPaths.repositoryRoot.appendingPathComponent("Templates")

    @Test func theShippedTemplatesReadAndFillEveryPlaceholder() throws {
        let library = try PushTemplateLibrary(folder: Self.folder)
        let template = try #require(library.template("expiring-soon", locale: "en-GB"))
        let filled = template.render([
            "display_name": "Ana <b>&", "expiring_count": "3", "first_expiring_item": "Milk \"2%\"",
            "days_left": "2", "plan": "free",
        ])
        #expect(filled.title == "Hi Ana <b>&, 3 items expire soon", "plain text: nothing escaped")
        #expect(filled.body == "Milk \"2%\" expires in 2 days. Open Expiry Tracker to plan your meals.")
        #expect(library.template("expiring-soon", locale: "pt-BR")?.language == "pt")
        #expect(library.template("expiring-soon", locale: "de-DE")?.language == "en", "English otherwise")
        #expect(library.template("go-premium", locale: "pt-PT")?.language == "en")
        #expect(library.template("no-such", locale: "en") == nil)
    }

    @Test func anEmptyOrMissingValueGetsItsFallback() throws {
        let template = try PushTemplate(
            name: "t", language: "en",
            text: "title: Hi {{display_name}}\nbody: {{first_expiring_item}} in {{days_left}} days, {{plan}}")
        let filled = template.render(["display_name": "  ", "days_left": ""])
        #expect(filled.title == "Hi there")
        #expect(filled.body == "An item in a few days, free", "a fallback opening a sentence gets a capital")
    }

    @Test(arguments: [
        ("title: Hi {{name}}\nbody: b", "unknown placeholder"),
        ("title: Hi {{{first_name}}}\nbody: b", "unknown placeholder"),
        ("title: Hi {{#vip}}x{{/vip}}\nbody: b", "unknown placeholder"),
        ("title: Hi {{> header}}\nbody: b", "is not a placeholder"),
        ("title: Hi {{display_name.first}}\nbody: b", "is not a placeholder"),
        ("title: Hi {{uppercased(display_name)}}\nbody: b", "is not a placeholder"),
        ("title: Hi {{#plan}}x\nbody: b", "is not a valid template"),
        ("title: Hi {{display_name\nbody: b", "is never closed"),
        ("body: only a body", "needs a line"),
        ("title: \nbody: b", "empty title or body"),
    ])
    func brokenTemplatesAreRefusedWhenRead(text: String, sentence: String) {
        do {
            _ = try PushTemplate(name: "t", language: "en", text: text)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.description.contains(sentence), "\(error.description)")
        }
    }

    @Test func aFolderWithABadFileOrNoEnglishIsRefusedNamingIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("templates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("title: a\nbody: b".utf8).write(to: folder.appendingPathComponent("welcome.pt.mustache"))
        #expect(
            throws: TemplateError(
                "welcome has no English version (welcome.en.mustache), which every other language falls back to")
        ) {
            try PushTemplateLibrary(folder: folder)
        }
        try Data("title: a\nbody: b".utf8).write(to: folder.appendingPathComponent("welcome.english.mustache"))
        #expect(
            throws: TemplateError(
                "welcome.english.mustache is not named NAME.LANG.mustache (LANG: two letters, e.g. en)")
        ) {
            try PushTemplateLibrary(folder: folder)
        }
    }
}
