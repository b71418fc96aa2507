import AdminDomain
import ServiceLifecycle

/// Support's pages: finding a user, their profile, activity and reminders, and the activity
/// lists. Every look at a user's data is audit-logged through `StaffAudit`.
public struct SupportArea: PanelArea {
    /// Heavy users' status counts and item order, kept for a minute.
    public let heavyUsers = HeavyUserCache()
    let database: PanelDatabase
    let templates: MessageTemplates
    let defaultTimeZone: String
    /// The activity lists compare with the dashboard's latest figures.
    let dashboard: DashboardRefresher
    /// It has no background work of its own.
    public let services: [any Service] = []

    let auditLog: AuditLog

    init(core: PanelCore, dashboard: DashboardRefresher) {
        database = core.database
        templates = core.templates
        defaultTimeZone = core.configuration.defaultTimeZone
        self.dashboard = dashboard
        auditLog = core.auth.signIn.audit
    }

    func addRoutes(to staffRoutes: inout StaffRoutes) {
        let audit = StaffAudit(log: auditLog)
        let directory = UserDirectory(database: database)
        UsersController(
            directory: directory,
            profiles: .init(
                database: database, heavyUsers: heavyUsers, templates: templates.library,
                defaultTimeZone: defaultTimeZone),
            items: UserItems(database: database, cache: heavyUsers),
            activity: .init(directory: directory, log: UserActivityLog(database: database)),
            reminders: UserReminders(database: database),
            audit: audit
        ).addRoutes(to: &staffRoutes)
        ActivityController(lists: .init(lists: ActivityLists(database: database), dashboard: dashboard), audit: audit)
            .addRoutes(to: &staffRoutes)
    }
}
