import HTMLRender

/// A form's fields as typed, with why it was refused: each control shows what was typed again,
/// takes its name as id (the problems' summary links to it), and when refused is marked and
/// followed by the sentences why.
struct FormControls {
    let values: [String: String]
    let problems: FormProblems

    init(form: some QueryForm, problems: FormProblems) {
        self.values = form.fields
        self.problems = problems
    }

    /// `value` stands in for what was typed (a default shown in an empty field).
    func input(
        _ label: String, type: String, name: String, value: String? = nil, _ attributes: Attribute...
    ) -> [HTMLNode] {
        labelled(label, type: type, name: name, value: value, attributes)
    }

    func number(
        _ label: String, name: String, min: Int, max: Int? = nil, value: String? = nil, _ attributes: Attribute...
    ) -> [HTMLNode] {
        let bounds = [Attribute("min", String(min))] + (max.map { [Attribute("max", String($0))] } ?? [])
        return labelled(label, type: "number", name: name, value: value, bounds + attributes)
    }

    @HTMLBuilder private func labelled(
        _ label: String, type: String, name: String, value: String?, _ attributes: [Attribute]
    ) -> [HTMLNode] {
        HTMLRender.label {
            label
            voidElement(
                "input", [.type(type), .name(name), .id(name), .value(value ?? values[name] ?? "")] + attributes
            )
            .adding(problems.marks(name))
        }
        problems.message(name)
    }

    @HTMLBuilder func textArea(_ label: String, name: String, rows: Int, maxlength: Int) -> [HTMLNode] {
        HTMLRender.label {
            label
            textarea(.name(name), .id(name), Attribute("rows", String(rows)), .maxlength(maxlength)) {
                values[name] ?? ""
            }
            .adding(problems.marks(name))
        }
        problems.message(name)
    }
}

/// A fieldset headed by its legend.
func fieldset(_ legend: String, @HTMLBuilder _ children: () -> [HTMLNode]) -> HTMLNode {
    element("fieldset", []) {
        element("legend", []) { legend }
        children()
    }
}
