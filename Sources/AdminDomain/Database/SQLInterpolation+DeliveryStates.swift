import GRDB

extension SQLInterpolation {
    /// `state IN (\(states: DeliveryState.waiting))`: the states written as literals,
    /// `'queued', 'retry'`, since a partial index is used only for the text its WHERE names.
    /// Our own constants, never user text; only an `SQL` literal takes them.
    mutating func appendInterpolation(states: [DeliveryState]) {
        appendInterpolation(sql: states.map { "'\($0.rawValue)'" }.joined(separator: ", "))
    }
}
