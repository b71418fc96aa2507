import AdminDomain
import PushTemplates

/// The composer: the form as typed, why it was refused, and the templates to choose from.
struct ComposerModel {
    struct TemplateChoice: Sendable {
        let name: String
        let languages: [String]
        let title: String
        let body: String
    }

    var form: ComposerForm
    var problems: [String] = []
    /// For a refusal about one field, the field's name: marked there as well as at the top.
    var problemFields: [String: String] = [:]
    var templates: [TemplateChoice]
    /// Why there are no templates to choose, when there are none.
    var templateProblem: String?
    /// The draft being edited; nil: a new one.
    var editing: Int64?

    init(
        form: ComposerForm = ComposerForm(fields: ["when": "now", "ttl": "86400"]), problems: [String] = [],
        problemFields: [String: String] = [:],
        library: PushTemplateLibrary, templateProblem: String?, editing: Int64? = nil
    ) {
        self.editing = editing
        self.form = form
        self.problems = problems
        self.problemFields = problemFields
        templates = library.templates.keys.sorted().compactMap { name in
            guard let languages = library.templates[name], let english = languages["en"] else { return nil }
            return TemplateChoice(
                name: name, languages: languages.keys.sorted(), title: english.titleSource, body: english.bodySource)
        }
        self.templateProblem = templateProblem
    }

    var formProblems: FormProblems { FormProblems(problems, fields: problemFields) }
}
