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
        // Each refusal about a field is marked there too, and the list at the top links to it.
        let problems = model.formProblems
        let heading = model.editing.map { "Edit draft #\($0)" } ?? "Compose a campaign"
        let target = model.editing.map { SiteURL.campaignEdit(id: $0) } ?? SiteURL.newCampaign
        return PageLayout(
            pageTitle: heading, viewer: viewer, activeSection: .campaigns,
            headExtras: [script(.src(SiteURL.composerScript.path), .defer) {}]
        ) {
            section(.class("panel")) {
                h1 { heading }
                p(.class("muted")) {
                    "Nothing is sent from this page: saving shows the audience and a preview, then asks you to confirm."
                }
                if !problems.isEmpty { problems.summary("The campaign was not saved:") }
                if let problem = model.templateProblem { p(.class("notice")) { problem } }
                HTMLRender.form(.method(.post), .action(target.href), .class("composer"), .id("composer")) {
                    CSRFField(token: viewer.csrfToken)
                    fieldsetNode("Message") {
                        label {
                            "Internal name (staff only; recipients never see it)"
                            input(
                                .type("text"), .name("name"), .id("name"), .value(form["name"]),
                                .maxlength(Campaigns.nameLimit)
                            ).adding(problems.marks("name"))
                        }
                        problems.message("name")
                        label {
                            "Template"
                            select(.name("template"), .id("template")) {
                                option(.value("")) { "None: write the message below" }
                                for choice in model.templates {
                                    option(
                                        selectedIf: form["template"] == choice.name, .value(choice.name),
                                        Attribute("data-title", choice.title), Attribute("data-body", choice.body)
                                    ) {
                                        "\(choice.name) (\(choice.languages.joined(separator: ", ")))"
                                    }
                                }
                            }.adding(problems.marks("template"))
                        }
                        problems.message("template")
                        p(.class("hint")) {
                            "A template sends each recipient the version in their language (English otherwise). Placeholders you may use in your own text too: "
                            code { PushTemplate.placeholders.keys.sorted().map { "{{\($0)}}" }.joined(separator: " ") }
                            "; an empty value gets a fallback such as “there”. A count's word follows it in the right form with "
                            code { "{{expiring_count}} {{plural expiring_count \"item\" \"items\"}}" }
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
                        p(.class("counter")) {
                            output(.id("title-count"), Attribute("for", "title")) {
                                "\(form["title"].count) of \(ComposerForm.titleLimit) characters"
                            }
                        }
                        label {
                            "Message"
                            textarea(
                                .name("body"), .id("body"), Attribute("rows", "4"), .maxlength(ComposerForm.bodyLimit)
                            ) { form["body"] }
                            .adding(problems.marks("body"))
                        }
                        problems.message("body")
                        p(.class("counter")) {
                            output(.id("body-count"), Attribute("for", "body")) {
                                "\(form["body"].count) of \(ComposerForm.bodyLimit) characters"
                            }
                            " · "
                            output(.id("payload-count"), Attribute("data-limit", String(PushLimits.payloadBytes))) {
                                "payload checked against \(Format.grouped(PushLimits.payloadBytes)) bytes when saved"
                            }
                        }
                        SelectField(
                            label: "Opens in the app", name: "deep_link", options: ComposerForm.deepLinks,
                            selected: form["deep_link"], anyLabel: "The app's home screen",
                            problems: problems)
                        SelectField(
                            label: "Time to live (how long a provider keeps trying an offline phone)", name: "ttl",
                            options: ComposerForm.timesToLive, selected: form["ttl"], anyLabel: nil, problems: problems)
                    }
                    ComposerExperimentFields(model: model)
                    fieldsetNode("Audience (all conditions must hold)") {
                        SelectField(
                            label: "Activity", name: "bucket",
                            options: ActivityBucket.allCases.map { ($0.rawValue, $0.label) }, selected: form["bucket"],
                            anyLabel: "All users",
                            problems: problems)
                        SelectField(
                            label: "Plan", name: "plan", options: Plan.allCases.map { ($0.rawValue, $0.rawValue) },
                            selected: form["plan"], problems: problems)
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
                        label {
                            "Food expiring within (days)"
                            input(
                                .type("number"), .name("food_days"), .id("food_days"), .value(form["food_days"]),
                                Attribute("min", "0"), Attribute("max", "365")
                            )
                            .adding(problems.marks("food_days"))
                        }
                        problems.message("food_days")
                        label {
                            "Documents expiring within (days)"
                            input(
                                .type("number"), .name("document_days"), .id("document_days"),
                                .value(form["document_days"]), Attribute("min", "0"),
                                Attribute("max", "3650")
                            ).adding(problems.marks("document_days"))
                        }
                        problems.message("document_days")
                        SelectField(
                            label: "Of document type", name: "document_type",
                            options: DocumentType.allCases.map { ($0.rawValue, $0.label) },
                            selected: form["document_type"], problems: problems)
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
                        p(.class("hint")) {
                            "Always left out, and counted on the next page: suspended and deleted accounts, push or campaign pushes turned off, devices without permission or token, tokens a provider called dead, and people who already had the weekly maximum of campaign pushes."
                        }
                    }
                    fieldsetNode("When") {
                        SelectField(
                            label: "Send", name: "when", options: ComposerForm.whens,
                            selected: form["when"].isEmpty ? "now" : form["when"], anyLabel: nil,
                            problems: problems)
                        label {
                            "Date and time (UTC), for “at a time”"
                            input(.type("datetime-local"), .name("send_at"), .id("send_at"), .value(form["send_at"]))
                                .adding(problems.marks("send_at"))
                        }
                        problems.message("send_at")
                        label {
                            "Local time (HH:MM), for “at a local time”"
                            input(.type("time"), .name("local_time"), .id("local_time"), .value(form["local_time"]))
                                .adding(problems.marks("local_time"))
                        }
                        problems.message("local_time")
                        label {
                            "At most this many pushes a second (empty: the providers' quota, \(Format.grouped(10_000)))"
                            input(
                                .type("number"), .name("per_second"), .id("per_second"), .value(form["per_second"]),
                                Attribute("min", "1"), Attribute("max", "10000")
                            )
                            .adding(problems.marks("per_second"))
                        }
                        problems.message("per_second")
                        p(.class("hint")) {
                            "Quiet hours are respected: a push that would land in someone's quiet hours waits until they end."
                        }
                    }
                    ComposerTimingFields(
                        timing: form["timing"], controlPercent: form["timing_control_percent"], problems: model.problems
                    )
                    div(.class("actions")) {
                        button(.type("submit"), .class("primary")) { "Save and preview the audience" }
                        if let id = model.editing {
                            a(.href(SiteURL.campaign(id: id).href)) { "Back to the draft" }
                        } else {
                            a(.href(SiteURL.campaigns().href)) { "Back to the campaigns" }
                        }
                    }
                }
            }
        }.content
    }

    private func fieldsetNode(_ legend: String, @HTMLBuilder _ children: () -> [HTMLNode]) -> HTMLNode {
        element("fieldset", []) {
            element("legend", []) { legend }
            children()
        }
    }
}

/// An option, selected when `selected` holds.
func option(selectedIf selected: Bool, _ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode]) -> HTMLNode {
    element("option", attributes + (selected ? [.selected] : []), content: content)
}
