import AdminDomain
import Foundation
import Hummingbird
import PushClients

/// `GET /health`, open without sign-in for a load balancer or supervisor: whether the
/// database answers, each background job's last run, and which push providers are set up.
/// Nothing personal, no counts of users. 200 when all is well, 503 when the database does not
/// answer or a job's last run failed. The reminder alerts are reported but leave it 200: the
/// panel itself is up.
struct HealthController {
    let database: PanelDatabase
    let health: ServiceHealth
    let push: PushProviders
    let reminders: ReminderHealthMonitor

    func addRoutes(to router: Router<PanelRequestContext>) {
        router.get(RouterPath(SiteURL.health.path)) { _, _ in try await self.health() }
    }

    struct Report: Codable, Equatable {
        struct Job: Codable, Equatable {
            let runs: Int
            let lastRunAt: String?
            let lastSuccessAt: String?
            let lastDurationMs: Double?
            let lastError: String?
        }

        struct Provider: Codable, Equatable {
            let configured: Bool
            let lastAuthenticatedAt: String?
        }

        let status: String
        let database: String
        let jobs: [String: Job]
        /// FCM and APNs: configured or not, and when each last took our credentials.
        let push: [String: Provider]
        let reminders: Reminders
    }

    /// The reminder alerts in force and the last hour's figures; `counted` false (and the
    /// rest empty) before the first count is done.
    struct Reminders: Codable, Equatable {
        struct Alert: Codable, Equatable {
            let kind: String
            let sentence: String
            let since: String
            /// `from_data` when the rows say when it began, `first_seen` when only the panel's first sight does.
            let began: String
        }

        struct Figures: Codable, Equatable {
            let due, sent, sentOnTime, failed, cancelled, overdue, opened: Int
            let onTimeShare, successRate: Double?
            let latenessP90Seconds: Int64?
        }

        let counted: Bool
        let asOf: String?
        let alerts: [Alert]
        let lastHour: Figures?
        /// The newest row in the app's tables: the backend's last sign of life.
        let newestAppData: String?

        init(_ snapshot: ReminderHealthSnapshot?) {
            counted = snapshot != nil
            asOf = snapshot.map { SQLiteTime.string($0.asOf) }
            alerts =
                snapshot?.alerts.map {
                    Alert(
                        kind: $0.kind.rawValue, sentence: $0.sentence, since: SQLiteTime.string($0.since),
                        began: $0.began.rawValue)
                } ?? []
            lastHour = snapshot?.report(.hour).map { report in
                let figures = report.figures
                return Figures(
                    due: figures.due, sent: figures.sent, sentOnTime: figures.sentOnTime, failed: figures.failed,
                    cancelled: figures.cancelled, overdue: figures.overdue, opened: figures.opened,
                    onTimeShare: figures.onTimeShare, successRate: figures.successRate,
                    latenessP90Seconds: figures.lateness?.p90)
            }
            newestAppData = snapshot?.newestAppData.map(SQLiteTime.string)
        }
    }

    func health() async throws -> Response {
        let databaseProblem = await database.problem()
        let jobs = health.current.mapValues { status in
            Report.Job(
                runs: status.runs, lastRunAt: status.lastRunAt.map(SQLiteTime.string),
                lastSuccessAt: status.lastSuccessAt.map(SQLiteTime.string),
                lastDurationMs: status.lastDuration.map {
                    Double($0.components.seconds) * 1000 + Double($0.components.attoseconds) / 1e15
                },
                lastError: status.lastError)
        }
        let healthy = databaseProblem == nil && jobs.values.allSatisfy { $0.lastError == nil }
        let push = await push.status().mapValues {
            Report.Provider(
                configured: $0.configured, lastAuthenticatedAt: $0.lastAuthenticatedAt.map(SQLiteTime.string))
        }
        let report = Report(
            status: healthy ? "ok" : "unhealthy", database: databaseProblem ?? "ok", jobs: jobs, push: push,
            reminders: Reminders(reminders.latest()))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return Response(
            status: healthy ? .ok : .serviceUnavailable,
            headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(data: try encoder.encode(report))))
    }
}
