import AdminDomain
import Foundation

/// The dashboard's shared body rendered once per snapshot and range, so a request costs a
/// dictionary lookup and the page shell, not a redraw of a dozen charts.
actor DashboardPageCache {
    private var snapshotTime: Date?
    private var bodies: [DashboardRange: String] = [:]

    func body(for model: DashboardModel) -> String {
        if snapshotTime != model.snapshot.updatedAt {
            snapshotTime = model.snapshot.updatedAt
            bodies = [:]
        }
        if let body = bodies[model.range] { return body }
        let body = DashboardBody(model: model).content.renderString()
        bodies[model.range] = body
        return body
    }
}
