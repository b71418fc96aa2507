import AdminDomain
import Foundation
import HummingbirdTesting
import Logging
import ServiceLifecycle
import TestSupport
import Testing

@testable import AdminWeb

@Suite(.timeLimit(.minutes(20))) struct Health {
    @Test func healthyWithoutSignInThenUnhealthyWhenTheDatabaseIsGone() async throws {
        let panel = try await TestPanel(areas: [], push: .none)
        defer { panel.remove() }
        try await panel.test { client in
            let healthy = try await client.get("/health")
            #expect(healthy.status == .ok)
            #expect(healthy.headers[.contentType] == "application/json")
            let report = try JSONDecoder.snakeCase.decode(
                HealthController.Report.self, from: Data(buffer: healthy.body))
            #expect(report.status == "ok" && report.database == "ok")
            #expect(
                report.push == [
                    "fcm": .init(configured: false, lastAuthenticatedAt: nil),
                    "apns": .init(configured: false, lastAuthenticatedAt: nil),
                ])
            #expect(!healthy.text.contains("@"), "no personal data")

            try FileManager.default.removeItem(atPath: panel.temp.path)
            let gone = try await client.get("/health")
            #expect(gone.status == .serviceUnavailable)
            let goneReport = try JSONDecoder.snakeCase.decode(
                HealthController.Report.self, from: Data(buffer: gone.body))
            #expect(goneReport.status == "unhealthy" && goneReport.database == "the database file is gone")
        }
    }

    @Test func aJobThatFailedItsLastRunMakesHealthUnhealthyWithItsError() async throws {
        let panel = try await TestPanel(areas: [])
        defer { panel.remove() }
        // A job of its own: the panel's real jobs run at start and would record a success.
        panel.areas.site.health.register("failing-job")
        panel.areas.site.health.record("failing-job", at: Date(), duration: .milliseconds(3), error: JobFailure())
        try await panel.test { client in
            let response = try await client.get("/health")
            #expect(response.status == .serviceUnavailable)
            let report = try JSONDecoder.snakeCase.decode(
                HealthController.Report.self, from: Data(buffer: response.body))
            #expect(report.jobs["failing-job"]?.lastError == "JobFailure()")
            #expect(report.jobs["failing-job"]?.runs == 1)
        }
    }
}

@Suite(.timeLimit(.minutes(20))) struct PeriodicJobs {
    @Test func aJobRunsUntilGracefulShutdownAndRecordsEachRun() async throws {
        let health = ServiceHealth()
        let runs = Counter()
        let job = PeriodicJob(name: "tick", every: .milliseconds(20), health: health, logger: Logger(label: "test")) {
            await runs.increment()
        }
        let group = ServiceGroup(configuration: .init(services: [job], logger: Logger(label: "test")))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            // A deadline for liveness, not speed: under the whole suite on two cores the
            // cooperative threads can be busy for many seconds.
            let ranThrice = try await eventually(within: .seconds(120)) { await runs.value >= 3 }
            await group.triggerGracefulShutdown()
            #expect(ranThrice, "a job every 20 ms ran three times within 2 minutes")
            try await tasks.waitForAll()
        }
        let status = try #require(health.current["tick"])
        #expect(status.runs >= 3 && status.lastError == nil && status.lastSuccessAt != nil)
    }

    @Test func aJobThatKeepsFailingEndsTheGroupWithItsError() async throws {
        let health = ServiceHealth()
        let job = PeriodicJob(
            name: "broken", every: .milliseconds(5), health: health, logger: Logger(label: "test"),
            maxConsecutiveFailures: 3
        ) { throw JobFailure() }
        let group = ServiceGroup(configuration: .init(services: [job], logger: Logger(label: "test")))
        await #expect(throws: PeriodicJobError.self) { try await group.run() }
        #expect(health.current["broken"]?.runs == 3)
        #expect(health.current["broken"]?.lastError == "JobFailure()")
    }
}

struct JobFailure: Error {}

actor Counter {
    private(set) var value = 0
    func increment() { value += 1 }
}

extension JSONDecoder {
    static var snakeCase: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }
}
