import AdminDomain
import PushTemplates

/// The composer's measuring fields: holdout, goal, variants B to D and the winner test.
extension ComposerForm {
    static let goals: [(value: String, label: String)] = CampaignGoal.allCases.map { ($0.rawValue, $0.label) }

    /// Read with the rest of the form; each refusal a sentence on `reader`.
    func readExperiment(_ reader: inout FieldReader, templates: PushTemplateLibrary) -> CampaignExperiment {
        var experiment = CampaignExperiment()
        experiment.holdoutPercent =
            reader.number("holdout_percent", "The holdout", in: CampaignExperiment.holdoutRange) ?? 0
        experiment.goal = reader.term("goal", "goal")
        experiment.goalDays =
            reader.number("goal_days", "The goal's window (days)", in: CampaignExperiment.goalDaysRange) ?? 3
        if experiment.holdoutPercent > 0, experiment.goal == nil,
            !reader.problems.contains(where: { $0.hasPrefix("There is no goal") })
        {
            // Held-out users cannot open a push: without a goal there is nothing to compare them on.
            reader.problem(
                "A holdout is compared with the recipients on a goal: choose a goal, or set the holdout to 0.",
                field: "goal")
        }
        for variant in [MessageVariant.b, .c, .d] {
            let suffix = "_\(variant.rawValue)"
            let template = reader.choice(
                "template" + suffix, "template for variant \(variant.letter)", in: templates.templates.keys.sorted())
            var title = self["title" + suffix]
            var body = self["body" + suffix]
            if let template, let english = templates.templates[template]?["en"] {
                title = english.titleSource
                body = english.bodySource
            }
            let hasTitle = !Self.isBlank(title)
            let hasBody = !Self.isBlank(body)
            guard hasTitle || hasBody else { continue }
            guard hasTitle, hasBody else {
                reader.problem(
                    "Variant \(variant.letter) needs both a title and a message (or a template); leave both empty for "
                        + "no variant \(variant.letter).",
                    field: (hasTitle ? "body" : "title") + suffix)
                continue
            }
            if title.count > Self.titleLimit {
                reader.problem(
                    "Variant \(variant.letter)'s title is \(title.count) characters; keep it to \(Self.titleLimit).",
                    field: "title" + suffix)
            }
            if body.count > Self.bodyLimit {
                reader.problem(
                    "Variant \(variant.letter)'s message is \(body.count) characters; keep it to \(Self.bodyLimit).",
                    field: "body" + suffix)
            }
            experiment.variants.append(VariantMessage(variant: variant, title: title, body: body, template: template))
        }
        // Letters follow one another: a C without a B would be measured as B's share.
        let letters = experiment.variants.map(\.variant)
        if letters != Array([MessageVariant.b, .c, .d].prefix(letters.count)) {
            reader.problem("Fill the variants in order: B first, then C, then D.", field: "title_b")
        }
        experiment.testPercent = reader.number(
            "test_percent", "The test share", in: CampaignExperiment.testPercentRange)
        experiment.winnerWaitHours = reader.number(
            "winner_wait_hours", "The wait before the winner is chosen (hours)", in: CampaignExperiment.winnerWaitRange)
        if experiment.testPercent != nil {
            if experiment.variants.isEmpty {
                reader.problem(
                    "A test share needs at least two messages: write variant B, or leave the test share empty.",
                    field: "test_percent")
            }
            if experiment.winnerWaitHours == nil { experiment.winnerWaitHours = 24 }
        } else if experiment.winnerWaitHours != nil {
            reader.problem(
                "A wait before the winner needs a test share: give the share of the audience that gets the variants "
                    + "first, or leave the wait empty.",
                field: "winner_wait_hours")
        }
        return experiment
    }

    /// A stored draft's measuring fields, to edit it.
    static func fields(of experiment: CampaignExperiment) -> [String: String?] {
        var fields: [String: String?] = [
            "holdout_percent": experiment.holdoutPercent == 0 ? nil : String(experiment.holdoutPercent),
            "goal": experiment.goal?.rawValue,
            "goal_days": String(experiment.goalDays),
            "test_percent": experiment.testPercent.map(String.init),
            "winner_wait_hours": experiment.winnerWaitHours.map(String.init),
        ]
        for variant in experiment.variants {
            let suffix = "_\(variant.variant.rawValue)"
            if let template = variant.template {
                fields["template" + suffix] = template
            } else {
                fields["title" + suffix] = variant.title
                fields["body" + suffix] = variant.body
            }
        }
        return fields
    }
}
