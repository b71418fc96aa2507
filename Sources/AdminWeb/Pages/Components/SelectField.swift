import HTMLRender

/// A labelled select whose current value stays selected; the first option is "any" (empty).
struct SelectField: HTMLComponent {
    let label: String
    let name: String
    let options: [(value: String, label: String)]
    let selected: String
    var anyLabel: String? = "any"

    var content: HTMLNode {
        HTMLRender.label {
            label
            select(.name(name)) {
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
    }
}
