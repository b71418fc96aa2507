import Foundation
import GRDB

/// What the audit log records; the raw values are what the table stores.
public enum AuditAction: String, Sendable, CaseIterable {
    case signIn = "sign_in"
    case signInFailed = "sign_in_failed"
    case signOut = "sign_out"
    case otherSessionsEnded = "other_sessions_ended"
    case adminCreated = "admin_created"
    case adminDisabled = "admin_disabled"
    case adminEnabled = "admin_enabled"
    case roleChanged = "role_changed"
    case passwordReset = "password_reset"
    case auditExported = "audit_exported"
    case csrfRejected = "csrf_rejected"
    case forbidden = "forbidden"
    case signInThrottled = "sign_in_throttled"
    case signInLocked = "sign_in_locked"
    case signInUnlocked = "sign_in_unlocked"
    case twoFactorFailed = "two_factor_failed"
    case twoFactorEnabled = "two_factor_enabled"
    case twoFactorDisabled = "two_factor_disabled"
    case twoFactorReset = "two_factor_reset"
    case recoveryCodesRegenerated = "recovery_codes_regenerated"
    case recoveryCodeUsed = "recovery_code_used"
    case passwordChanged = "password_changed"
    case sessionsEnded = "sessions_ended"
    case userSearched = "user_searched"
    case userViewed = "user_viewed"
    case userActivityViewed = "user_activity_viewed"
    case activityListViewed = "activity_list_viewed"
    case usersExported = "users_exported"
    case pushTestSent = "push_test_sent"
    case campaignCreated = "campaign_created"
    case campaignLaunched = "campaign_launched"
    case campaignPaused = "campaign_paused"
    case campaignResumed = "campaign_resumed"
    case campaignCancelled = "campaign_cancelled"
    case campaignPreviewed = "campaign_previewed"
    case campaignFrozen = "campaign_frozen"
    case campaignStopped = "campaign_stopped"
    case campaignFinished = "campaign_finished"
    case campaignEdited = "campaign_edited"
    case campaignDuplicated = "campaign_duplicated"
    case campaignDeleted = "campaign_deleted"
    case campaignTestSent = "campaign_test_sent"
    case campaignTestRefused = "campaign_test_refused"
    case campaignWinnerChosen = "campaign_winner_chosen"
    case campaignReportExported = "campaign_report_exported"
    case journeyCreated = "journey_created"
    case journeyEdited = "journey_edited"
    case journeyDeleted = "journey_deleted"
    case journeyActivated = "journey_activated"
    case journeyPaused = "journey_paused"
    case journeyResumed = "journey_resumed"
    case journeyEnded = "journey_ended"
    case journeyReportExported = "journey_report_exported"
    case testUserAdded = "test_user_added"
    case testUserRemoved = "test_user_removed"
    case testUserRefused = "test_user_refused"
    case testUsersViewed = "test_users_viewed"
    case globalControlChanged = "global_control_changed"
}

public struct AuditEntry: Sendable {
    public var actor: StaffIdentity?
    /// For actions without a signed-in actor, such as a failed sign-in: the email typed.
    public var actorEmail: String?
    public var clientAddress: String?
    public var action: AuditAction
    public var target: String?
    public var detail: String?

    public init(
        actor: StaffIdentity?, actorEmail: String? = nil, clientAddress: String?,
        action: AuditAction, target: String? = nil, detail: String? = nil
    ) {
        self.actor = actor
        self.actorEmail = actorEmail ?? actor?.email
        self.clientAddress = clientAddress
        self.action = action
        self.target = target
        self.detail = detail
    }
}

/// Append-only `panel_audit_log`: triggers in the schema refuse UPDATE and DELETE.
public struct AuditLog: Sendable {
    let database: PanelDatabase

    public init(database: PanelDatabase) {
        self.database = database
    }

    public func append(_ entry: AuditEntry, now: Date = Date()) async throws {
        try await database.write { db in try Self.insert(entry, now: now, in: db) }
    }

    /// Several rows in one transaction: one look that showed several people, a row each.
    public func append(_ entries: [AuditEntry], now: Date = Date()) async throws {
        guard !entries.isEmpty else { return }
        try await database.write { db in
            for entry in entries { try Self.insert(entry, now: now, in: db) }
        }
    }

    /// The row inside a caller's transaction: a change and its audit row commit together
    /// or not at all.
    static func insert(_ entry: AuditEntry, now: Date = Date(), in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO panel_audit_log (at, admin_id, actor_email, client_address, action, target, detail)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                PanelTime(now), entry.actor?.adminID, entry.actorEmail.map { String($0.prefix(320)) },
                entry.clientAddress, entry.action.rawValue, entry.target,
                entry.detail.map { String($0.prefix(Self.detailLimit)) },
            ])
    }
}
