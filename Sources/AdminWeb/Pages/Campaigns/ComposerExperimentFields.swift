import AdminDomain
import HTMLRender

/// The composer's variants and measuring fields: what the campaign's report will compare.
/// Variants B to D and the winner test are folded until asked for, and open by themselves
/// when they hold something or were refused, so that nothing typed is out of sight.
struct ComposerExperimentFields: HTMLComponent {
    let model: ComposerModel
    /// A journey has no winner test, and its goal window runs from each entry.
    var forJourney = false

    static let variantFields = [MessageVariant.b, .c, .d].flatMap { variant in
        ["template", "title", "body"].map { "\($0)_\(variant.rawValue)" }
    }
    static let winnerFields = ["test_percent", "winner_wait_hours"]

    /// Open when any of its fields holds a value or a refusal.
    static func variantsOpen(_ model: ComposerModel, forJourney: Bool) -> Bool {
        let names = variantFields + (forJourney ? [] : winnerFields)
        let problems = model.formProblems
        return names.contains { model.form.fields[$0] != nil || !problems.about($0).isEmpty }
    }

    var content: HTMLNode {
        let form = model.form
        let problems = model.formProblems
        let controls = FormControls(form: form, problems: problems)
        let open = Self.variantsOpen(model, forJourney: forJourney)
        return div(.class("experiment")) {
            fieldset("Variants (optional: up to four messages, each recipient drawn into one)") {
                element("details", [.class("variants"), .id("variants")] + (open ? [.open] : [])) {
                    element("summary", []) {
                        forJourney ? "Variants B, C and D" : "Variants B, C and D, and the winner test"
                    }
                    p(.class("hint")) {
                        "The message above is variant A. Each variant is checked as A is; "
                        "a recipient gets one variant on all their devices."
                    }
                    for variant in [MessageVariant.b, .c, .d] {
                        variantFields(variant, controls)
                    }
                    if !forJourney { winnerTest(controls) }
                }
            }
            fieldset("Measure the effect") {
                controls.number(
                    "Holdout: percent of the reachable users who get nothing, to compare with (0–50; 5 to 10 is usual)",
                    name: "holdout_percent", min: 0, max: 50, .placeholder("0"))
                SelectField(
                    label: "Goal", name: "goal", options: ComposerForm.goals, selected: form["goal"],
                    anyLabel: "None: report opens only", problems: problems)
                controls.number(
                    forJourney
                        ? "Goal window: days after each entry (1–14)" : "Goal window: days after the launch (1–14)",
                    name: "goal_days", min: 1, max: 14, value: form["goal_days"].isEmpty ? "3" : form["goal_days"])
                if forJourney {
                    p(.class("hint")) {
                        "Holdout: each entry is drawn on entering; a held-out user gets nothing. "
                        "A user converts when the goal happens within the window after entering, sent the push or "
                        "held out: the difference is the journey's lift."
                    }
                } else {
                    p(.class("hint")) {
                        "A user converts when the goal happens within the window after the launch, whether they "
                        "were sent the push or held out: the difference is the campaign's lift."
                    }
                }
            }
        }
    }

    private func variantFields(_ variant: MessageVariant, _ controls: FormControls) -> HTMLNode {
        let suffix = "_\(variant.rawValue)"
        let problems = controls.problems
        return element("div", [.class("variant")]) {
            p(.class("variant-name")) { strong { "Variant \(variant.letter)" } }
            label {
                "Template"
                select(.name("template" + suffix), .id("template" + suffix)) {
                    option(.value("")) { "None: write variant \(variant.letter) below" }
                    for choice in model.templates {
                        option(selectedIf: model.form["template" + suffix] == choice.name, .value(choice.name)) {
                            choice.name
                        }
                    }
                }.adding(problems.marks("template" + suffix))
            }
            problems.message("template" + suffix)
            controls.input("Title", type: "text", name: "title" + suffix, .maxlength(ComposerForm.titleLimit))
            controls.textArea("Message", name: "body" + suffix, rows: 3, maxlength: ComposerForm.bodyLimit)
        }
    }

    @HTMLBuilder private func winnerTest(_ controls: FormControls) -> [HTMLNode] {
        controls.number(
            "Test share: percent of the recipients who get the variants first "
                + "(5–50; empty: every variant to everyone at once)",
            name: "test_percent", min: 5, max: 50)
        controls.number(
            "Then, after this many hours (1–72; empty: 24), the best variant goes to the rest",
            name: "winner_wait_hours", min: 1, max: 72)
        p(.class("hint")) {
            "The best variant is the one with the highest goal conversion, or the highest open rate when there is "
            "no goal. You can also choose it earlier by hand on the campaign's page."
        }
    }
}
