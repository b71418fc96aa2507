import Foundation
import GRDB

/// The simulated apps' users doing things after a campaign, so that the demo's reports fill
/// and show a lift: some who open a push go on to add an item (a few upgrade) in the minute
/// after, as someone already in the app would. Nobody else is touched: a holdout member or a
/// control user was sent nothing and behaves as anyone who got nothing does, at the everyday
/// pace of the simulated backend (`EverydayUse`). Before, 12% of each holdout and 35% of
/// recipients acted within seconds of the launch, and one campaign multiplied the day's
/// active users by five (issue 36). A few who open one turn campaign pushes off in the app
/// instead, so that what a push costs shows beside its holdout and the global control group
/// (issue 48).
struct DemoGoalEvents {
    /// The chance that a user who opened the push adds an item afterwards.
    static let afterOpenChance = 0.4
    static let upgradeShare = 0.15
    /// The chance that a user who opened the push turns campaign pushes off.
    static let optOutChance = 0.08
    static let optOut = "marketing_off"

    private var due: [(at: Date, user: Int64, kind: String)] = []
    private var generator = SystemRandomNumberGenerator()

    /// `opened`: the users whose open the apps just wrote. Their events come due 5 to 60
    /// seconds on, written as the backend would record them.
    mutating func tick(opened: [Int64], now: Date, in queue: DatabaseQueue) throws {
        for user in opened where Double.random(in: 0..<1, using: &generator) < Self.optOutChance {
            due.append((now.addingTimeInterval(Double.random(in: 2...20, using: &generator)), user, Self.optOut))
        }
        for user in opened where Double.random(in: 0..<1, using: &generator) < Self.afterOpenChance {
            let upgrades = Double.random(in: 0..<1, using: &generator) < Self.upgradeShare
            due.append(
                (
                    now.addingTimeInterval(Double.random(in: 5...60, using: &generator)), user,
                    upgrades ? "upgraded" : "item_added"
                ))
        }
        let ready = due.filter { $0.at <= now }
        guard !ready.isEmpty else { return }
        due.removeAll { $0.at <= now }
        let stamp = DemoReceipts.timestamp(now)
        try queue.write { db in
            let insert = try db.makeStatement(
                sql: """
                    INSERT INTO activity_events (user_id, kind, detail, platform, created_at)
                    VALUES (?, ?, NULL, NULL, ?)
                    """)
            // The app's settings screen: the switch, and the event the backend records for it.
            let optOut = try db.makeStatement(
                sql: "UPDATE notification_settings SET marketing_opt_in = 0 WHERE user_id = ?")
            let changed = try db.makeStatement(
                sql: """
                    INSERT INTO activity_events (user_id, kind, detail, platform, created_at)
                    VALUES (?, 'settings_changed', '{"marketing_opt_in":false}', NULL, ?)
                    """)
            for event in ready {
                if event.kind == Self.optOut {
                    try optOut.execute(arguments: [event.user])
                    try changed.execute(arguments: [event.user, stamp])
                } else {
                    try insert.execute(arguments: [event.user, event.kind, stamp])
                }
            }
        }
    }
}
