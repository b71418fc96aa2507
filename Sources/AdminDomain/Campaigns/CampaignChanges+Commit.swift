import GRDB

extension CampaignChanges {
    /// Publishes `campaigns` once the write transaction `db` is in commits; a rollback
    /// publishes nothing. Called inside the write that makes the change, so that no caller
    /// has to remember to publish after it, and nobody is woken before the commit.
    public func publishOnCommit(_ campaigns: some Sequence<Int64>, in db: Database) {
        let touched = Array(campaigns)
        guard !touched.isEmpty else { return }
        // On GRDB's writer queue, right after the commit: publish takes a lock briefly and
        // never waits.
        db.afterNextTransaction(onCommit: { _ in self.publish(touched) })
    }

    public func publishOnCommit(_ campaign: Int64, in db: Database) {
        publishOnCommit(CollectionOfOne(campaign), in: db)
    }
}
