import AdminDomain
import HTMLRender
import PushTemplates

/// The journey form: trigger, conditions, message (the composer's fields), when to send,
/// measuring, re-entry and a daily ceiling. Nothing is sent from here: a journey starts as
/// a draft and is activated on its page.
struct JourneyFormView: HTMLComponent {
    let model: JourneyFormModel
    let viewer: Viewer

    var content: HTMLNode {
        let form = model.form
        // Each refusal about a field is marked there too, and the list at the top links to it.
        let problems = model.formProblems
        let heading = model.editing.map { "Edit journey #\($0)" } ?? "New journey"
        let target = model.editing.map { SiteURL.journeyEdit(id: $0) } ?? SiteURL.newJourney
        return PageLayout(pageTitle: heading, viewer: viewer, activeSection: .journeys) {
            section(.class("panel")) {
                h1 { heading }
                p(.class("muted")) {
                    "A journey sends its message by itself to each user who crosses its trigger, once. It is saved as a draft: its page shows who would enter in the next 24 hours before you activate it."
                }
                if !problems.isEmpty { problems.summary("The journey was not saved:") }
                if let problem = model.composer.templateProblem { p(.class("notice")) { problem } }
                HTMLRender.form(.method(.post), .action(target.href), .class("composer"), .id("journey-form")) {
                    CSRFField(token: viewer.csrfToken)
                    fieldset("Trigger") {
                        label {
                            "Internal name (staff only; recipients never see it; left empty, the title stands for it)"
                            input(
                                .type("text"), .name("name"), .id("name"), .value(form["name"]),
                                .maxlength(Campaigns.nameLimit)
                            ).adding(problems.marks("name"))
                        }
                        problems.message("name")
                        SelectField(
                            label: "Users enter when they are", name: "trigger", options: JourneyForm.triggers,
                            selected: form["trigger"], anyLabel: nil,
                            problems: problems)
                        label {
                            "N: the trigger's number of days"
                            input(
                                .type("number"), .name("trigger_days"), .id("trigger_days"),
                                .value(form["trigger_days"]), Attribute("min", "1"), Attribute("max", "180")
                            )
                            .adding(problems.marks("trigger_days"))
                        }
                        problems.message("trigger_days")
                        label {
                            "K: fewer than this many items (first days only)"
                            input(
                                .type("number"), .name("fewer_items"), .id("fewer_items"), .value(form["fewer_items"]),
                                Attribute("min", "1"), Attribute("max", "50")
                            )
                            .adding(problems.marks("fewer_items"))
                        }
                        problems.message("fewer_items")
                    }
                    fieldset("Conditions (all must hold, at entry and again at the push)") {
                        SelectField(
                            label: "Activity", name: "bucket",
                            options: ActivityBucket.allCases.map { ($0.rawValue, $0.label) }, selected: form["bucket"],
                            anyLabel: "All users",
                            problems: problems)
                        SelectField(
                            label: "Plan", name: "plan", options: Plan.allCases.map { ($0.rawValue, $0.rawValue) },
                            selected: form["plan"], problems: problems)
                        SelectField(
                            label: "Platform", name: "platform",
                            options: Platform.allCases.map { ($0.rawValue, $0.rawValue) }, selected: form["platform"],
                            problems: problems)
                        label {
                            "Signed up from"
                            input(
                                .type("date"), .name("signed_up_from"), .id("signed_up_from"),
                                .value(form["signed_up_from"])
                            ).adding(problems.marks("signed_up_from"))
                        }
                        problems.message("signed_up_from")
                        label {
                            "Signed up to"
                            input(
                                .type("date"), .name("signed_up_to"), .id("signed_up_to"), .value(form["signed_up_to"])
                            ).adding(problems.marks("signed_up_to"))
                        }
                        problems.message("signed_up_to")
                    }
                    fieldset("Message") {
                        label {
                            "Template"
                            select(.name("template"), .id("template")) {
                                option(.value("")) { "None: write the message below" }
                                for choice in model.composer.templates {
                                    option(selectedIf: form["template"] == choice.name, .value(choice.name)) {
                                        "\(choice.name) (\(choice.languages.joined(separator: ", ")))"
                                    }
                                }
                            }.adding(problems.marks("template"))
                        }
                        problems.message("template")
                        p(.class("hint")) {
                            "Placeholders you may use in your own text: "
                            code { PushTemplate.placeholders.keys.sorted().map { "{{\($0)}}" }.joined(separator: " ") }
                            "."
                        }
                        label {
                            "Title"
                            input(
                                .type("text"), .name("title"), .id("title"), .value(form["title"]),
                                .maxlength(ComposerForm.titleLimit)
                            )
                            .adding(problems.marks("title"))
                        }
                        problems.message("title")
                        label {
                            "Message"
                            textarea(
                                .name("body"), .id("body"), Attribute("rows", "4"), .maxlength(ComposerForm.bodyLimit)
                            ) { form["body"] }
                            .adding(problems.marks("body"))
                        }
                        problems.message("body")
                        SelectField(
                            label: "Opens in the app", name: "deep_link", options: ComposerForm.deepLinks,
                            selected: form["deep_link"],
                            anyLabel: "The app's home screen", problems: problems)
                        SelectField(
                            label: "Time to live (how long a provider keeps trying an offline phone)", name: "ttl",
                            options: ComposerForm.timesToLive, selected: form["ttl"], anyLabel: nil, problems: problems)
                    }
                    ComposerExperimentFields(model: model.composer, forJourney: true)
                    fieldset("When and how often") {
                        SelectField(
                            label: "Send", name: "send_at", options: JourneyForm.sendAts, selected: form["send_at"],
                            anyLabel: nil, problems: problems)
                        label {
                            "Window from (local hour, 0–23)"
                            input(
                                .type("number"), .name("window_from"), .id("window_from"), .value(form["window_from"]),
                                Attribute("min", "0"), Attribute("max", "23")
                            )
                            .adding(problems.marks("window_from"))
                        }
                        problems.message("window_from")
                        label {
                            "Window to (local hour, 0–23)"
                            input(
                                .type("number"), .name("window_to"), .id("window_to"), .value(form["window_to"]),
                                Attribute("min", "0"), Attribute("max", "23")
                            )
                            .adding(problems.marks("window_to"))
                        }
                        problems.message("window_to")
                        label {
                            "Re-entry after (days, 1–365; empty: a user enters once, ever)"
                            input(
                                .type("number"), .name("reentry_days"), .id("reentry_days"),
                                .value(form["reentry_days"]), Attribute("min", "1"), Attribute("max", "365")
                            )
                            .adding(problems.marks("reentry_days"))
                        }
                        problems.message("reentry_days")
                        label {
                            "At most this many entries a day (empty: no limit)"
                            input(
                                .type("number"), .name("daily_limit"), .id("daily_limit"), .value(form["daily_limit"]),
                                Attribute("min", "1")
                            )
                            .adding(problems.marks("daily_limit"))
                        }
                        problems.message("daily_limit")
                        p(.class("hint")) {
                            "Quiet hours are always kept. A push that cannot go within 24 hours of the entry is not sent: the entry expires, counted in the report."
                        }
                    }
                    ComposerTimingFields(
                        timing: form["timing"], controlPercent: form["timing_control_percent"],
                        problems: model.problems,
                        forJourney: true)
                    div(.class("actions")) {
                        button(.type("submit"), .class("primary")) { "Save the draft" }
                        if let id = model.editing {
                            a(.href(SiteURL.journey(id: id).href)) { "Back to the journey" }
                        } else {
                            a(.href(SiteURL.journeys().href)) { "Back to the journeys" }
                        }
                    }
                }
            }
        }.content
    }

    private func fieldset(_ legend: String, @HTMLBuilder _ children: () -> [HTMLNode]) -> HTMLNode {
        element("fieldset", []) {
            element("legend", []) { legend }
            children()
        }
    }
}
