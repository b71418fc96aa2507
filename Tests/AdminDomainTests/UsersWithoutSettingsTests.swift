import AdminDomain
import Foundation
import GRDB
import TestSupport
import Testing

/// Issue 32, finding 10: users with no `notification_settings` row are counted as consenting
/// (the schema's defaults); the preview says how many, from the same pass that counts them.
@Suite(.timeLimit(.minutes(20))) struct UsersWithoutSettingsTests {
    @Test func thePreviewCountsReachableUsersWithoutASettingsRow() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 300)
        defer { temp.remove() }
        // The test's own copy: every seventh user's settings row goes.
        try await DatabaseQueue(path: temp.path).write { db in
            try db.execute(sql: "DELETE FROM notification_settings WHERE user_id % 7 = 0")
        }
        let database = try await PanelDatabase.open(path: temp.path)
        // Reachable by the schema's rules, written here without the panel's code (a fresh
        // panel: no dead token, no campaign push yet), and with no settings row.
        let expected = try await DatabaseQueue(path: temp.path).read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FROM users u WHERE u.status = 'active'
                      AND NOT EXISTS (SELECT 1 FROM notification_settings s WHERE s.user_id = u.id)
                      AND EXISTS (SELECT 1 FROM devices d WHERE d.user_id = u.id AND d.push_permission = 'granted'
                                  AND COALESCE(d.push_token, '') <> '' AND d.push_provider IN ('fcm', 'apns'))
                    """) ?? -1
        }
        #expect(expected > 0, "the seeded users include reachable ones whose row was deleted")
        let preview = try await Audience().preview(CampaignSegment(), schedule: .now, in: database)
        #expect(preview.usersWithoutSettings == expected)
        #expect(preview.usersWithoutSettings < preview.counts.reachableUsers)
    }
}
