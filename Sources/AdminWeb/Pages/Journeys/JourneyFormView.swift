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
        let problems = model.formProblems
        let controls = FormControls(form: form, problems: problems)
        let heading = model.editing.map { "Edit journey #\($0)" } ?? "New journey"
        let target = model.editing.map { SiteURL.journeyEdit(id: $0) } ?? SiteURL.newJourney
        return PageLayout(pageTitle: heading, viewer: viewer, activeSection: .journeys) {
            section(.class("panel")) {
                h1 { heading }
                p(.class("muted")) {
                    "A journey sends its message by itself to each user who crosses its trigger, once. It is saved as "
                    "a draft: its page shows who would enter in the next 24 hours before you activate it."
                }
                if !problems.isEmpty { problems.summary("The journey was not saved:") }
                if let problem = model.composer.templateProblem { p(.class("notice")) { problem } }
                HTMLRender.form(.method(.post), .action(target.href), .class("composer"), .id("journey-form")) {
                    CSRFField(token: viewer.csrfToken)
                    fieldset("Trigger") { trigger(controls) }
                    fieldset("Conditions (all must hold, at entry and again at the push)") {
                        controls.activityAndPlan
                        controls.platformAndSignUp
                    }
                    fieldset("Message") { message(controls) }
                    ComposerExperimentFields(model: model.composer, forJourney: true)
                    fieldset("When and how often") { when(controls) }
                    ComposerTimingFields(
                        timing: form["timing"], controlPercent: form["timing_control_percent"],
                        problems: model.problems,
                        forJourney: true)
                    FormActions(
                        submit: "Save the draft",
                        back: model.editing.map { ("Back to the journey", .journey(id: $0)) }
                            ?? ("Back to the journeys", .journeys()))
                }
            }
        }.content
    }

    @HTMLBuilder private func trigger(_ controls: FormControls) -> [HTMLNode] {
        controls.input(
            "Internal name (staff only; recipients never see it; left empty, the title stands for it)",
            type: "text", name: "name", .maxlength(Campaigns.nameLimit))
        SelectField(
            label: "Users enter when they are", name: "trigger", options: JourneyForm.triggers,
            selected: model.form["trigger"], anyLabel: nil, problems: controls.problems)
        controls.number("N: the trigger's number of days", name: "trigger_days", min: 1, max: 180)
        controls.number("K: fewer than this many items (first days only)", name: "fewer_items", min: 1, max: 50)
    }

    @HTMLBuilder private func message(_ controls: FormControls) -> [HTMLNode] {
        controls.template(model.composer.templates, withTexts: false)
        p(.class("hint")) {
            "Placeholders you may use in your own text: "
            code { PushTemplate.placeholders.keys.sorted().map { "{{\($0)}}" }.joined(separator: " ") }
            "."
        }
        controls.title
        controls.body
        controls.opensAndTimeToLive
    }

    @HTMLBuilder private func when(_ controls: FormControls) -> [HTMLNode] {
        SelectField(
            label: "Send", name: "send_at", options: JourneyForm.sendAts, selected: model.form["send_at"],
            anyLabel: nil, problems: controls.problems)
        controls.number("Window from (local hour, 0–23)", name: "window_from", min: 0, max: 23)
        controls.number("Window to (local hour, 0–23)", name: "window_to", min: 0, max: 23)
        controls.number(
            "Re-entry after (days, 1–365; empty: a user enters once, ever)", name: "reentry_days", min: 1, max: 365)
        controls.number("At most this many entries a day (empty: no limit)", name: "daily_limit", min: 1)
        p(.class("hint")) {
            "Quiet hours are always kept. A push that cannot go within 24 hours of the entry is not sent: "
            "the entry expires, counted in the report."
        }
    }
}
