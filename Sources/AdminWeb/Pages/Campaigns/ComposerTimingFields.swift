import AdminDomain
import HTMLRender

/// The composer's and the journey form's "Timing" fieldset: as scheduled, or at each user's
/// usual hour with a control share at the fixed time. Its refusals are shown beside it.
struct ComposerTimingFields: HTMLComponent {
    /// The fields as typed.
    let timing: String
    let controlPercent: String
    /// Every refusal of the form; those about timing are shown here.
    let problems: [String]
    var forJourney = false

    var content: HTMLNode {
        let mine = problems.filter(ComposerForm.isTimingProblem)
        let range = CampaignTiming.controlRange
        // A value this panel does not know stays chosen, so sending the form again is refused
        // again rather than saved as the first option the browser would show.
        var options = ComposerForm.timings
        if !timing.isEmpty, !options.contains(where: { $0.value == timing }) {
            options.insert((timing, "Not a timing this panel knows: choose one"), at: 0)
        }
        return element("fieldset", [.class("timing"), .id("timing-fields")]) {
            element("legend", []) { "Timing" }
            // Refused, both fields are marked and described by the sentences below them.
            let marks: [Attribute] =
                mine.isEmpty
                ? [] : [Attribute("aria-invalid", "true"), Attribute("aria-describedby", "timing-problem")]
            let chosen = timing.isEmpty ? CampaignTiming.asScheduled.name : timing
            label {
                "Send each push"
                element("select", [.name("timing"), .id("timing")] + marks) {
                    for choice in options {
                        option(selectedIf: choice.value == chosen, .value(choice.value)) { choice.label }
                    }
                }
            }
            label {
                "Control share (%), \(range.lowerBound)–\(range.upperBound), with each user's usual hour"
                input(
                    .type("number"), .name("timing_control_percent"), .id("timing_control_percent"),
                    .value(controlPercent.isEmpty ? String(CampaignTiming.defaultControlPercent) : controlPercent),
                    Attribute("min", String(range.lowerBound)), Attribute("max", String(range.upperBound))
                ).adding(marks)
            }
            p(.class("hint")) {
                "At each user's usual hour: each push goes within 24 hours of the \(forJourney ? "entry" : "launch") "
                "at the local hour the user is most often active (their own, else that of users like them). "
                "The control share is sent "
                forJourney ? "as the journey's rule says " : "at the campaign's fixed time "
                "instead, so that the report can show whether the usual hour helped."
            }
            if !mine.isEmpty {
                div(.class("notice error field-problem"), .id("timing-problem")) {
                    for sentence in mine { p { sentence } }
                }
            }
        }
    }
}
