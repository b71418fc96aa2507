/// A draft's texts checked for control characters before they are stored.
extension CampaignDraft {
    /// The first text holding a control character, as a sentence: a second line behind the
    /// web form's check (the CLI and other callers come here too). SQLite would store a text
    /// only up to a NUL, and the audit row with it.
    var controlCharacterProblem: String? {
        var texts: [(label: String, text: String, multiLine: Bool)] = [
            ("the internal name", name ?? "", false), ("the title", title, false),
            ("the message", body, true),
        ]
        for variant in experiment.variants {
            texts.append(("variant \(variant.variant.letter)'s title", variant.title, false))
            texts.append(("variant \(variant.variant.letter)'s message", variant.body, true))
        }
        return texts.lazy.compactMap { TypedText.controlProblem($0.label, in: $0.text, multiLine: $0.multiLine) }.first
    }
}

extension CampaignDraft {
    /// The timing's refusal for this draft's schedule and experiment.
    var timingProblem: String? {
        timing.refusal(localTime: schedule.localTime != nil, winnerTest: experiment.hasWinnerTest)
    }
}
