import ServiceLifecycle

/// One area of the panel (dashboard, reminders, support, campaigns, journeys): its
/// background services and its signed-in routes, built from the `PanelCore` and the areas it
/// depends on. `buildApplication` serves the areas it is given, on top of the core.
protocol PanelArea: Sendable {
    /// Run in the panel's service group, cancelled and awaited at shutdown.
    var services: [any Service] { get }
    func addRoutes(to staffRoutes: inout StaffRoutes)
}
