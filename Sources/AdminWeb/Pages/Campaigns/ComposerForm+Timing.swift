import AdminDomain

/// The composer's timing fields: as scheduled, or at each user's usual hour with a control
/// share at the fixed time. The journey form reads them the same way.
extension ComposerForm {
    static let timings: [(value: String, label: String)] = [
        (CampaignTiming.asScheduled.name, "As scheduled"),
        (
            CampaignTiming.usualHour(controlPercent: CampaignTiming.defaultControlPercent).name,
            "At each user's usual hour"
        ),
    ]

    /// Read with the rest of the form. An unknown timing or a bad share is refused with a
    /// sentence, never sent as scheduled instead; the schedule and winner test are checked
    /// against it by the domain's own rule.
    func readTiming(_ reader: inout FieldReader, schedule: CampaignSchedule, experiment: CampaignExperiment)
        -> CampaignTiming
    {
        let choice = reader.choice("timing", "timing", in: Self.timings.map(\.value))
        let range = CampaignTiming.controlRange
        let percent =
            reader.number("timing_control_percent", "The timing control share (%)", in: range)
            ?? CampaignTiming.defaultControlPercent
        guard choice == CampaignTiming.usualHour(controlPercent: 0).name else { return .asScheduled }
        let timing = CampaignTiming.usualHour(controlPercent: percent)
        var localTime = false
        if case .localTime = schedule { localTime = true }
        if let refusal = timing.refusal(localTime: localTime, winnerTest: experiment.hasWinnerTest) {
            reader.problem(refusal, field: "timing")
        }
        return timing
    }

    /// A stored timing as the form's fields; one this version cannot read is kept as a value
    /// the form refuses, so that saving never turns it into another.
    static func fields(of timing: CampaignTiming?) -> [String: String?] {
        guard let timing else { return ["timing": "unknown"] }
        return ["timing": timing.name, "timing_control_percent": timing.controlPercent.map(String.init)]
    }

    /// The sentences the Timing fieldset shows beside its fields (they are in the list at the top too).
    static func isTimingProblem(_ sentence: String) -> Bool {
        let lowered = sentence.lowercased()
        return lowered.contains("timing") || lowered.contains("usual hour")
    }
}
