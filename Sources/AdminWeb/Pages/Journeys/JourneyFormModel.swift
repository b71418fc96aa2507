import AdminDomain
import PushTemplates

/// The journey form: what was typed, why it was refused, the templates to choose from.
struct JourneyFormModel {
    var form: JourneyForm
    var problems: [String] = []
    /// For a refusal about one field, the field's name.
    var problemFields: [String: String] = [:]
    /// The composer's model, for its template list and its variant fields.
    var composer: ComposerModel
    /// The draft being edited; nil: a new one.
    var editing: Int64?

    init(
        form: JourneyForm = .blank, problems: [String] = [], problemFields: [String: String] = [:],
        library: PushTemplateLibrary,
        templateProblem: String?, editing: Int64? = nil
    ) {
        self.form = form
        self.problems = problems
        self.problemFields = problemFields
        self.editing = editing
        composer = ComposerModel(
            form: ComposerForm(fields: form.fields.filter { JourneyForm.composerFields.contains($0.key) }),
            problems: problems, problemFields: problemFields, library: library, templateProblem: templateProblem)
    }

    var formProblems: FormProblems { FormProblems(problems, fields: problemFields) }
}
