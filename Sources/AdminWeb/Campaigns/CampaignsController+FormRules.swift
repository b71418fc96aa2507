import AdminDomain
import Foundation
import Hummingbird

/// The composer's form rule: its text areas, how sentences name its fields, and the
/// composer shown again with what was typed when the form is refused on its way.
extension CampaignsController {
    static let composerLabels: [String: String] = {
        var labels = [
            "name": "the internal name", "title": "the title", "body": "the message", "template": "the template",
            "send_at": "the send time", "local_time": "the local time",
        ]
        for letter in ["b", "c", "d"] {
            labels["title_" + letter] = "variant \(letter.uppercased())'s title"
            labels["body_" + letter] = "variant \(letter.uppercased())'s message"
        }
        return labels
    }()

    func composerRule(editing: Bool) -> FormRules.Rule {
        let fields = FormRules.Rule(multiLine: ["body", "body_b", "body_c", "body_d"], labels: Self.composerLabels)
        var rule = fields
        rule.showAgain = { [source, templateProblem] form, refusal, context in
            let id = editing ? context.parameters.get("id", as: Int64.self) : nil
            let composer = ComposerForm(form: form)
            // A field refused on its way (a control character, say) and what the composer
            // itself would refuse, all at once (issue 46: the NUL first, then the placeholder).
            let own =
                refusal.status == .badRequest
                ? composer.read(templates: source.templates, now: Date()) : ComposerForm.Result(problems: [])
            // The field with the control character is marked as the composer's own are.
            var problemFields = own.problemFields
            if let control = FormRules.controlField(in: form, rule: fields), control.sentence == refusal.sentence {
                problemFields[refusal.sentence] = control.name
            }
            let model = ComposerModel(
                form: composer, problems: [refusal.sentence] + own.problems.filter { $0 != refusal.sentence },
                problemFields: problemFields, library: source.templates,
                templateProblem: templateProblem, editing: id)
            return HTMLPage(ComposerView(model: model, viewer: context.viewer), status: refusal.status).response()
        }
        return rule
    }
}

extension CampaignsController {
    /// The confirmation refused on its way: asked again, with the count as typed.
    var confirmRule: FormRules.Rule {
        FormRules.Rule(showAgain: { [self] form, refusal, context in
            let id = try campaignID(context)
            guard var model = try await CampaignConfirmModel.load(source, id: id) else {
                return .redirect(to: SiteURL.campaign(id: id).href, type: .normal)
            }
            model.typed = String((form["typed_count"] ?? "").prefix(40))
            model.problem = refusal.sentence
            return HTMLPage(CampaignConfirmView(model: model, viewer: context.viewer), status: refusal.status)
                .response()
        })
    }

    /// A test send refused on its way: the campaign's page, where its form is, with the test
    /// user and variant chosen (a value the form does not offer falls back to its default
    /// there, and is refused if sent).
    var testSendRule: FormRules.Rule {
        FormRules.Rule(
            showAgain: { [self] form, refusal, context in
                let input = CampaignPageModel.Input(
                    id: try campaignID(context), problems: [refusal.sentence],
                    testedUser: form["user"].flatMap { Int64($0) },
                    testedVariant: form["variant"].flatMap { letter in
                        MessageVariant.allCases.first { $0.letter == letter }
                    })
                return try await page(context, input, status: refusal.status).response()
            }, page: { postedTo in "/" + postedTo.split(separator: "/").dropLast().joined(separator: "/") })
    }
}
