import AdminDomain
import HTMLRender

/// The fields the composer and the journey form share, in the same words.
extension FormControls {
    /// Who: activity and plan, the audience's first conditions.
    @HTMLBuilder var activityAndPlan: [HTMLNode] {
        SelectField(
            label: "Activity", name: "bucket", options: ActivityBucket.allCases.map { ($0.rawValue, $0.label) },
            selected: values["bucket"] ?? "", anyLabel: "All users", problems: problems)
        SelectField(
            label: "Plan", name: "plan", options: Plan.allCases.map { ($0.rawValue, $0.rawValue) },
            selected: values["plan"] ?? "", problems: problems)
    }

    /// The audience's last conditions: platform and when the user signed up.
    @HTMLBuilder var platformAndSignUp: [HTMLNode] {
        SelectField(
            label: "Platform", name: "platform", options: Platform.allCases.map { ($0.rawValue, $0.rawValue) },
            selected: values["platform"] ?? "", problems: problems)
        input("Signed up from", type: "date", name: "signed_up_from")
        input("Signed up to", type: "date", name: "signed_up_to")
    }

    /// The template to send instead of a text of one's own; the composer's options carry their
    /// texts for its live counts (composer.js).
    @HTMLBuilder func template(_ choices: [ComposerModel.TemplateChoice], withTexts: Bool) -> [HTMLNode] {
        HTMLRender.label {
            "Template"
            select(.name("template"), .id("template")) {
                option(.value("")) { "None: write the message below" }
                for choice in choices {
                    let texts =
                        withTexts ? [Attribute("data-title", choice.title), Attribute("data-body", choice.body)] : []
                    let selected: [Attribute] = values["template"] == choice.name ? [.selected] : []
                    element("option", [.value(choice.name)] + texts + selected) {
                        "\(choice.name) (\(choice.languages.joined(separator: ", ")))"
                    }
                }
            }.adding(problems.marks("template"))
        }
        problems.message("template")
    }

    /// A message's title and text, within the limits the server checks again.
    var title: [HTMLNode] {
        input("Title", type: "text", name: "title", .maxlength(ComposerForm.titleLimit))
    }

    var body: [HTMLNode] {
        textArea("Message", name: "body", rows: 4, maxlength: ComposerForm.bodyLimit)
    }

    /// Where the push opens the app and how long a provider keeps it for an offline phone.
    @HTMLBuilder var opensAndTimeToLive: [HTMLNode] {
        SelectField(
            label: "Opens in the app", name: "deep_link", options: ComposerForm.deepLinks,
            selected: values["deep_link"] ?? "", anyLabel: "The app's home screen", problems: problems)
        SelectField(
            label: "Time to live (how long a provider keeps trying an offline phone)", name: "ttl",
            options: ComposerForm.timesToLive, selected: values["ttl"] ?? "", anyLabel: nil, problems: problems)
    }
}
