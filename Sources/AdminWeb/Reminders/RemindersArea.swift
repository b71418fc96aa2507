import AdminDomain
import Logging
import ServiceLifecycle

/// The app's reminder health: its figures and alerts, re-read in the background, shown on
/// /reminders, in every page's alert banner and on /health.
public struct RemindersArea: PanelArea {
    public let monitor: ReminderHealthMonitor
    /// How often the figures are re-read, as their page says.
    let refreshInterval: Duration
    public let services: [any Service]

    init(core: PanelCore) {
        let (configuration, logger, health) = (core.configuration, core.logger, core.site.health)
        let monitor = core.reminderHealth
        self.monitor = monitor
        refreshInterval = configuration.reminderRefreshInterval
        services = [
            PeriodicJob(
                name: "reminder-health", every: configuration.reminderRefreshInterval, health: health, logger: logger
            ) {
                try await monitor.refresh()
                if let snapshot = monitor.latest() { ReminderGauges().record(snapshot) }
            }
        ]
    }

    func addRoutes(to staffRoutes: inout StaffRoutes) {
        RemindersController(source: .init(monitor: monitor, refreshEvery: refreshInterval)).addRoutes(to: &staffRoutes)
    }
}
