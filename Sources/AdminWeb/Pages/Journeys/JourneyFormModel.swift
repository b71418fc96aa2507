import AdminDomain
import PushTemplates

/// The journey form: what was typed, why it was refused, the templates to choose from.
struct JourneyFormModel {
    var form: JourneyForm
    var problems: [String] = []
    /// The composer's model, for its template list and its variant fields.
    var composer: ComposerModel
    /// The draft being edited; nil: a new one.
    var editing: Int64?

    init(form: JourneyForm = .blank, problems: [String] = [], library: PushTemplateLibrary, templateProblem: String?, editing: Int64? = nil) {
        self.form = form
        self.problems = problems
        self.editing = editing
        composer = ComposerModel(form: ComposerForm(fields: form.fields.filter { JourneyForm.composerFields.contains($0.key) }),
                                 library: library, templateProblem: templateProblem)
    }
}
