import AdminDomain
import Foundation
import HTTPTypes
import HummingbirdTesting
import TestSupport
import Testing

@testable import AdminWeb

/// Issue 46, finding 9: 50 concurrent exports by one support user starved the server. The
/// exports being written are bounded per staff member and in all; one more is refused at once
/// with 429, a sentence and `Retry-After`, and a refused one is no failure: the slots come
/// back when the downloads end. Exports are held mid-write by the test (`JobHold(exports:)`),
/// so "in flight" is a state the test makes, not a race with the clock.
@Suite(.timeLimit(.minutes(20))) struct ExportBounds {
    static let export = "/activity.csv?bucket=idle"

    /// A panel allowing `maxExports` in all and 2 per staff member, its exports held by `hold`.
    static func panel(maxExports: Int, holding hold: JobHold) async throws -> TestPanel {
        var built = try await TestPanel(jobHold: hold)
        built.configuration.maxExports = maxExports
        built.configuration.maxExportsPerStaff = 2
        built.rebuildAreas()
        return built
    }

    @Test func aStaffMembersExportBeyondTheirBoundIsRefusedWithRetryAfter() async throws {
        let hold = JobHold(jobs: false, exports: true)
        let panel = try await Self.panel(maxExports: 10, holding: hold)
        defer { panel.remove() }
        let email = try await panel.addStaff()
        let exports = panel.areas.site.exports
        try await panel.test { client in
            let support = try await panel.signIn(client, email: email)
            let admin = try await panel.signIn(client)
            do {
                try await withThrowingTaskGroup(of: TestResponse.self) { group in
                    // Held exports would never end: let them go however this closure ends.
                    defer { hold.release() }
                    for _ in 0..<2 { group.addTask { try await client.get(Self.export, cookie: support) } }
                    #expect(try await eventually(within: .seconds(30)) { exports.inFlight == 2 }, "two being written")
                    let third = try await client.get(Self.export, cookie: support)
                    #expect(third.status == .tooManyRequests, "a third by the same person: \(third.status)")
                    #expect(third.headers[.retryAfter].flatMap { Int($0) }.map { $0 > 0 } == true)
                    #expect(third.text.contains("each person may have 2 at once"), "a sentence, no stack trace")
                    // Another staff member is not held back by the first one's bound.
                    group.addTask { try await client.get("/audit.csv", cookie: admin) }
                    #expect(
                        try await eventually(within: .seconds(30)) { exports.inFlight == 3 }, "the admin's is written")
                    hold.release()
                    for try await response in group {
                        #expect(response.status == .ok && response.text.hasPrefix("\u{FEFF}id,"))
                    }
                }
            }
            #expect(exports.inFlight == 0, "every slot given back")
            #expect(try await client.get(Self.export, cookie: support).status == .ok, "once written, the next is too")
        }
    }

    @Test func everyCSVRouteIsRefusedWhileThePanelWritesItsMost() async throws {
        let hold = JobHold(jobs: false, exports: true)
        let panel = try await Self.panel(maxExports: 2, holding: hold)
        defer { panel.remove() }
        let email = try await panel.addStaff()
        let exports = panel.areas.site.exports
        let csvRoutes = panel.router().staffRoutes.filter { $0.method == .get && $0.path.hasSuffix(".csv") }.map {
            $0.path.replacingOccurrences(of: ":id", with: "1")
        }
        // The exports the issue names: activity, audit, the campaign's and journey's reports, and the
        // dashboard's and reminders' figures.
        for path in ["/activity.csv", "/audit.csv", "/campaigns/1/report.csv", "/journeys/1/report.csv"] {
            #expect(csvRoutes.contains(path), "\(path) is a route")
        }
        #expect(csvRoutes.count >= 6)
        try await panel.test { client in
            let support = try await panel.signIn(client, email: email)
            let admin = try await panel.signIn(client)
            do {
                try await withThrowingTaskGroup(of: TestResponse.self) { group in
                    // Held exports would never end: let them go however this closure ends.
                    defer { hold.release() }
                    group.addTask { try await client.get(Self.export, cookie: support) }
                    group.addTask { try await client.get(Self.export, cookie: admin) }
                    #expect(try await eventually(within: .seconds(30)) { exports.inFlight == 2 }, "two being written")
                    // One each, under each person's bound: the panel's bound refuses them.
                    let again = try await client.get(Self.export, cookie: support)
                    #expect(again.status == .tooManyRequests && again.headers[.retryAfter] != nil)
                    #expect(again.text.contains("the most the panel writes at once"))
                    for path in csvRoutes {
                        let refused = try await client.get(path, cookie: admin)
                        #expect(refused.status == .tooManyRequests, "\(path): \(refused.status)")
                        #expect(refused.headers[.retryAfter] != nil, "\(path)")
                    }
                    hold.release()
                    for try await response in group { #expect(response.status == .ok) }
                }
            }
            #expect(exports.inFlight == 0, "every slot given back, refused or written")
            #expect(try await client.get("/audit.csv", cookie: admin).status == .ok)
        }
    }

}
