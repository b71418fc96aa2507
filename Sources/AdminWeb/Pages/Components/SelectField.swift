import HTMLRender

/// A labelled select whose current value stays selected; the first option is "any" (empty).
struct SelectField: HTMLComponent {
    let label: String
    let name: String
    let options: [(value: String, label: String)]
    let selected: String
    var anyLabel: String? = "any"
    /// In a form that marks its refusals at their fields: the select gets its name as id (the
    /// summary links to it), and when refused is marked and followed by why.
    var problems: FormProblems?

    var content: HTMLNode {
        let field = HTMLRender.label {
            label
            element("select", [.name(name)] + (problems.map { [.id(name)] + $0.marks(name) } ?? [])) {
                if let anyLabel { option(.value("")) { anyLabel } }
                for choice in options {
                    if choice.value == selected {
                        option(.value(choice.value), .selected) { choice.label }
                    } else {
                        option(.value(choice.value)) { choice.label }
                    }
                }
            }
        }
        guard let problems, !problems.about(name).isEmpty else { return field }
        return div(.class("field")) {
            field
            problems.message(name)
        }
    }
}
