import AdminDomain

/// Reminder health: a success criterion met, under its target, or with nothing to measure.
enum CriterionVerdict: String, CaseIterable, Sendable {
    case met, under
    case nothingToMeasure = "nothing-to-measure"

    init(_ criterion: ReminderCriterion) {
        switch criterion.met {
        case true?: self = .met
        case false?: self = .under
        case nil: self = .nothingToMeasure
        }
    }
}
