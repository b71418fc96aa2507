import AdminDomain
import Logging
import ServiceLifecycle

/// The app's reminder health: its figures and alerts, re-read in the background, shown on
/// /reminders, in every page's alert banner and on /health.
public struct RemindersArea: Sendable {
    public let monitor: ReminderHealthMonitor
    /// How often the figures are re-read, as their page says.
    let refreshInterval: Duration
    public let services: [any Service]

    init(database: PanelDatabase, configuration: PanelConfiguration, logger: Logger, health: ServiceHealth) {
        let monitor = ReminderHealthMonitor(
            database: database, options: configuration.reminderAlerts,
            fullEvery: configuration.reminderFullCountInterval)
        self.monitor = monitor
        refreshInterval = configuration.reminderRefreshInterval
        // Reminders are the backend's rows. With no commit of another connection, only the clock
        // moves a figure (a window sliding, a silence growing into an alert): every two minutes.
        let changed = ChangeGate(
            watch: database.watch, atLeastEvery: max(configuration.reminderRefreshInterval, .seconds(120)))
        services = [
            PeriodicJob(
                name: "reminder-health", every: configuration.reminderRefreshInterval, health: health, logger: logger,
                runOnlyIf: { await changed.shouldRun() },
                work: {
                    try await monitor.refresh()
                    if let snapshot = monitor.latest() { ReminderGauges().record(snapshot) }
                })
        ]
    }

    func addRoutes(to staffRoutes: inout StaffRoutes) {
        RemindersController(source: .init(monitor: monitor, refreshEvery: refreshInterval)).addRoutes(to: &staffRoutes)
    }
}
