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
        let open = Self.variantsOpen(model, forJourney: forJourney)
        return div(.class("experiment")) {
            fieldset("Variants (optional: up to four messages, each recipient drawn into one)") {
                element("details", [.class("variants"), .id("variants")] + (open ? [.open] : [])) {
                    element("summary", []) {
                        forJourney ? "Variants B, C and D" : "Variants B, C and D, and the winner test"
                    }
                    p(.class("hint")) {
                        "The message above is variant A. Each variant is checked as A is; a recipient gets one variant on all their devices."
                    }
                    for variant in [MessageVariant.b, .c, .d] {
                        let suffix = "_\(variant.rawValue)"
                        element("div", [.class("variant")]) {
                            p(.class("variant-name")) { strong { "Variant \(variant.letter)" } }
                            label {
                                "Template"
                                select(.name("template" + suffix), .id("template" + suffix)) {
                                    option(.value("")) { "None: write variant \(variant.letter) below" }
                                    for choice in model.templates {
                                        option(
                                            selectedIf: form["template" + suffix] == choice.name, .value(choice.name)
                                        ) { choice.name }
                                    }
                                }.adding(problems.marks("template" + suffix))
                            }
                            problems.message("template" + suffix)
                            label {
                                "Title"
                                input(
                                    .type("text"), .name("title" + suffix), .id("title" + suffix),
                                    .value(form["title" + suffix]), .maxlength(ComposerForm.titleLimit)
                                )
                                .adding(problems.marks("title" + suffix))
                            }
                            problems.message("title" + suffix)
                            label {
                                "Message"
                                textarea(
                                    .name("body" + suffix), .id("body" + suffix), Attribute("rows", "3"),
                                    .maxlength(ComposerForm.bodyLimit)
                                ) { form["body" + suffix] }
                                .adding(problems.marks("body" + suffix))
                            }
                            problems.message("body" + suffix)
                        }
                    }
                    if !forJourney {
                        label {
                            "Test share: percent of the recipients who get the variants first (5–50; empty: every variant to everyone at once)"
                            input(
                                .type("number"), .name("test_percent"), .id("test_percent"),
                                .value(form["test_percent"]), Attribute("min", "5"), Attribute("max", "50")
                            )
                            .adding(problems.marks("test_percent"))
                        }
                        problems.message("test_percent")
                        label {
                            "Then, after this many hours (1–72; empty: 24), the best variant goes to the rest"
                            input(
                                .type("number"), .name("winner_wait_hours"), .id("winner_wait_hours"),
                                .value(form["winner_wait_hours"]),
                                Attribute("min", "1"), Attribute("max", "72")
                            ).adding(problems.marks("winner_wait_hours"))
                        }
                        problems.message("winner_wait_hours")
                        p(.class("hint")) {
                            "The best variant is the one with the highest goal conversion, or the highest open rate when there is no goal. You can also choose it earlier by hand on the campaign's page."
                        }
                    }
                }
            }
            fieldset("Measure the effect") {
                label {
                    "Holdout: percent of the reachable users who get nothing, to compare with (0–50; 5 to 10 is usual)"
                    input(
                        .type("number"), .name("holdout_percent"), .id("holdout_percent"),
                        .value(form["holdout_percent"]),
                        Attribute("min", "0"), Attribute("max", "50"), .placeholder("0")
                    ).adding(problems.marks("holdout_percent"))
                }
                problems.message("holdout_percent")
                SelectField(
                    label: "Goal", name: "goal", options: ComposerForm.goals, selected: form["goal"],
                    anyLabel: "None: report opens only", problems: problems)
                label {
                    forJourney
                        ? "Goal window: days after each entry (1–14)" : "Goal window: days after the launch (1–14)"
                    input(
                        .type("number"), .name("goal_days"), .id("goal_days"),
                        .value(form["goal_days"].isEmpty ? "3" : form["goal_days"]),
                        Attribute("min", "1"), Attribute("max", "14")
                    ).adding(problems.marks("goal_days"))
                }
                problems.message("goal_days")
                if forJourney {
                    p(.class("hint")) {
                        "Holdout: each entry is drawn on entering; a held-out user gets nothing. A user converts when the goal happens within the window after entering, sent the push or held out: the difference is the journey's lift."
                    }
                } else {
                    p(.class("hint")) {
                        "A user converts when the goal happens within the window after the launch, whether they were sent the push or held out: the difference is the campaign's lift."
                    }
                }
            }
        }
    }

    private func fieldset(_ legend: String, @HTMLBuilder _ children: () -> [HTMLNode]) -> HTMLNode {
        element("fieldset", []) {
            element("legend", []) { legend }
            children()
        }
    }
}
