import GRDB

/// What a claim did to journey entries, written at the end of its write transaction (an entry
/// whose push went out was marked `sent` as its row was claimed). One stopped by a rule about
/// the user (its trigger, the goal, the conditions, its age) is settled at once, its other
/// devices' rows with it; one whose device was left out (a dead token, the cap) only when none
/// of its devices is left to try.
struct JourneyClaimEntries {
    let at: PanelTime
    private var settleNow: [Int64: (JourneyEntryState, String?)] = [:]
    private var ifNothingLeft: [Int64: (JourneyEntryState, String?)] = [:]

    init(at: PanelTime) {
        self.at = at
    }

    mutating func unsent(_ row: ClaimCandidate, reason: String?, state: JourneyEntryState, userWide: Bool = false) {
        guard let entry = row.entryID else { return }
        if userWide { settleNow[entry] = (state, reason) } else { ifNothingLeft[entry] = (state, reason) }
    }

    func write(sent: [ClaimedDelivery], in db: Database) throws {
        // Those sent were marked as their rows were claimed (the cap counts them at once).
        let sentEntries = Set(sent.compactMap(\.entryID))
        for (entry, (state, reason)) in settleNow where !sentEntries.contains(entry) {
            try JourneyEntries.settle([entry], state: state, detail: reason, at: at, in: db)
        }
        let open = try db.cachedStatement(
            literal: """
                SELECT EXISTS (SELECT 1 FROM panel_deliveries INDEXED BY panel_deliveries_entry
                               WHERE entry_id = ? AND state IN (\(states: DeliveryState.open + [.accepted])))
                """)
        for (entry, (state, reason)) in ifNothingLeft where !sentEntries.contains(entry) && settleNow[entry] == nil {
            if try Bool.fetchOne(open, arguments: [entry]) == false {
                try JourneyEntries.settle([entry], state: state, detail: reason, at: at, in: db)
            }
        }
    }
}
