import Foundation
import GRDB

/// The simulated apps' users doing things after a campaign, so that the demo's reports fill
/// and show a lift: a recipient whose push was accepted adds an item (and sometimes
/// upgrades) more often than someone held out, who was sent nothing. Written into
/// `activity_events` as the backend would record them, a few seconds after the launch.
struct DemoGoalEvents {
    /// Chances per user: recipients (the push did something) and the holdout (the baseline).
    static let recipientChance = 0.35, holdoutChance = 0.12
    static let upgradeShare = 0.15

    private var seenDeliveries: Set<String> = []
    private var seenHoldout: Set<Int64> = []
    private var due: [(at: Date, user: Int64, kind: String)] = []
    private var generator = SystemRandomNumberGenerator()

    /// New accepted deliveries and new holdout members become events, due a few seconds on.
    mutating func tick(accepted: some Collection<String>, now: Date, in queue: DatabaseQueue) throws {
        let fresh = accepted.filter { $0.hasPrefix("c") && !seenDeliveries.contains($0) }
        seenDeliveries.formUnion(fresh)
        let rows = fresh.compactMap { $0.split(separator: "-").last.flatMap { Int64($0) } }
        let (recipients, holdout) = try queue.read { db -> ([Int64], [Int64]) in
            var users: [Int64] = []
            for row in rows {
                if let user = try Int64.fetchOne(db, sql: "SELECT user_id FROM panel_deliveries WHERE id = ?", arguments: [row]) { users.append(user) }
            }
            // Holdout members of campaigns launched in the last hour.
            let held = try Int64.fetchAll(db, sql: """
                SELECT m.user_id FROM panel_campaign_members m JOIN panel_campaigns c ON c.id = m.campaign_id
                WHERE m.arm = 'holdout' AND c.launched_at >= ?
                """, arguments: [DemoReceipts.timestamp(now.addingTimeInterval(-3_600))])
            return (Array(Set(users)), held)
        }
        for user in recipients { schedule(user, chance: Self.recipientChance, now: now) }
        for user in holdout where !seenHoldout.contains(user) {
            seenHoldout.insert(user)
            schedule(user, chance: Self.holdoutChance, now: now)
        }
        let ready = due.filter { $0.at <= now }
        guard !ready.isEmpty else { return }
        due.removeAll { $0.at <= now }
        let stamp = DemoReceipts.timestamp(now)
        try queue.write { db in
            let insert = try db.makeStatement(sql: "INSERT INTO activity_events (user_id, kind, detail, platform, created_at) VALUES (?, ?, NULL, NULL, ?)")
            for event in ready { try insert.execute(arguments: [event.user, event.kind, stamp]) }
        }
    }

    private mutating func schedule(_ user: Int64, chance: Double, now: Date) {
        guard Double.random(in: 0..<1, using: &generator) < chance else { return }
        let upgrades = Double.random(in: 0..<1, using: &generator) < Self.upgradeShare
        due.append((now.addingTimeInterval(Double.random(in: 2...12, using: &generator)), user, upgrades ? "upgraded" : "item_added"))
    }
}
