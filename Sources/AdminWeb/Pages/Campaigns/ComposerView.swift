import AdminDomain
import HTMLRender
import PushClients
import PushTemplates

/// The composer: message, audience, time. Counts of characters and payload bytes update
/// as one types (composer.js); the server checks the same limits again when saving.
struct ComposerView: HTMLComponent {
    let model: ComposerModel
    let viewer: Viewer

    var content: HTMLNode {
        let form = model.form
        let problems = model.formProblems
        let controls = FormControls(form: form, problems: problems)
        let heading = model.editing.map { "Edit draft #\($0)" } ?? "Compose a campaign"
        let target = model.editing.map { SiteURL.campaignEdit(id: $0) } ?? SiteURL.newCampaign
        return PageLayout(
            pageTitle: heading, viewer: viewer, activeSection: .campaigns,
            headExtras: [script(.src(SiteURL.composerScript.path), .defer) {}]
        ) {
            section(.class("panel")) {
                h1 { heading }
                p(.class("muted")) {
                    """
                    Nothing is sent from this page: saving shows the audience and a preview, \
                    then asks you to confirm.
                    """
                }
                if !problems.isEmpty { problems.summary("The campaign was not saved:") }
                if let problem = model.templateProblem { p(.class("notice")) { problem } }
                HTMLRender.form(.method(.post), .action(target.href), .class("composer"), .id("composer")) {
                    CSRFField(token: viewer.csrfToken)
                    fieldset("Message") { message(controls) }
                    ComposerExperimentFields(model: model)
                    fieldset("Audience (all conditions must hold)") { audience(controls) }
                    fieldset("When") { when(controls) }
                    ComposerTimingFields(
                        timing: form["timing"], controlPercent: form["timing_control_percent"], problems: model.problems
                    )
                    FormActions(
                        submit: "Save and preview the audience",
                        back: model.editing.map { ("Back to the draft", .campaign(id: $0)) }
                            ?? ("Back to the campaigns", .campaigns()))
                }
            }
        }.content
    }

    @HTMLBuilder private func message(_ controls: FormControls) -> [HTMLNode] {
        let form = model.form
        controls.input(
            "Internal name (staff only; recipients never see it)", type: "text", name: "name",
            .maxlength(Campaigns.nameLimit))
        controls.template(model.templates, withTexts: true)
        p(.class("hint")) {
            "A template sends each recipient the version in their language (English otherwise). "
            "Placeholders you may use in your own text too: "
            code { PushTemplate.placeholders.keys.sorted().map { "{{\($0)}}" }.joined(separator: " ") }
            "; an empty value gets a fallback such as “there”. "
            "A count's word follows it in the right form with "
            code { "{{expiring_count}} {{plural expiring_count \"item\" \"items\"}}" }
            "."
        }
        controls.title
        p(.class("counter")) {
            output(.id("title-count"), Attribute("for", "title")) {
                "\(form["title"].count) of \(ComposerForm.titleLimit) characters"
            }
        }
        controls.body
        p(.class("counter")) {
            output(.id("body-count"), Attribute("for", "body")) {
                "\(form["body"].count) of \(ComposerForm.bodyLimit) characters"
            }
            " · "
            output(.id("payload-count"), Attribute("data-limit", String(PushLimits.payloadBytes))) {
                "payload checked against \(Format.grouped(PushLimits.payloadBytes)) bytes when saved"
            }
        }
        controls.opensAndTimeToLive
    }

    @HTMLBuilder private func audience(_ controls: FormControls) -> [HTMLNode] {
        let form = model.form
        let problems = controls.problems
        controls.activityAndPlan
        label(.class("check")) {
            if form["near_limit"] == "1" {
                input(.type("checkbox"), .name("near_limit"), .id("near_limit"), .value("1"), .checked)
                    .adding(problems.marks("near_limit"))
            } else {
                input(.type("checkbox"), .name("near_limit"), .id("near_limit"), .value("1")).adding(
                    problems.marks("near_limit"))
            }
            " Free users at or near the 50-item limit (\(CampaignSegment.nearLimitItems) items or more)"
        }
        problems.message("near_limit")
        controls.number("Food expiring within (days)", name: "food_days", min: 0, max: 365)
        controls.number("Documents expiring within (days)", name: "document_days", min: 0, max: 3650)
        SelectField(
            label: "Of document type", name: "document_type",
            options: DocumentType.allCases.map { ($0.rawValue, $0.label) },
            selected: form["document_type"], problems: problems)
        controls.platformAndSignUp
        p(.class("hint")) {
            """
            Always left out, and counted on the next page: suspended and deleted accounts, push or campaign \
            pushes turned off, devices without permission or token, tokens a provider called dead, and people \
            who already had the weekly maximum of campaign pushes.
            """
        }
    }

    @HTMLBuilder private func when(_ controls: FormControls) -> [HTMLNode] {
        let form = model.form
        SelectField(
            label: "Send", name: "when", options: ComposerForm.whens,
            selected: form["when"].isEmpty ? "now" : form["when"], anyLabel: nil,
            problems: controls.problems)
        controls.input("Date and time (UTC), for “at a time”", type: "datetime-local", name: "send_at")
        controls.input("Local time (HH:MM), for “at a local time”", type: "time", name: "local_time")
        controls.number(
            "At most this many pushes a second (empty: the providers' quota, \(Format.grouped(10_000)))",
            name: "per_second", min: 1, max: 10000)
        p(.class("hint")) {
            "Quiet hours are respected: a push that would land in someone's quiet hours waits until they end."
        }
    }
}

/// An option, selected when `selected` holds.
func option(selectedIf selected: Bool, _ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode]) -> HTMLNode {
    element("option", attributes + (selected ? [.selected] : []), content: content)
}
