import GRDB

/// `panel_journey_entries.state`: `entered` waits for its send; `sent` went out (the
/// frequency cap counts it); the others ended it unsent (`held_out`: the journey's holdout;
/// `limited`: its daily limit). The table's CHECK lists the same words (`JourneyEntryStateTerms`).
public enum JourneyEntryState: String, VocabularyTerm {
    case entered
    case heldOut = "held_out"
    case sent, exited, expired, capped, limited

    /// Not ended: waiting, or sent with the journey's other devices perhaps still to go.
    public static let open: [JourneyEntryState] = [.entered, .sent]
}

extension SQLInterpolation {
    /// `e.state = \(entry: .sent)`: written as its literal, since a partial index
    /// (`panel_journey_entries_open`, `_sent`) is used only for the text its WHERE names.
    mutating func appendInterpolation(entry state: JourneyEntryState) {
        appendInterpolation(sql: state.sqlLiteral)
    }

    /// `e.state IN (\(entries: JourneyEntryState.open))`.
    mutating func appendInterpolation(entries states: [JourneyEntryState]) {
        appendInterpolation(sql: states.map(\.sqlLiteral).joined(separator: ", "))
    }
}
