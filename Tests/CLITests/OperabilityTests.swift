import Foundation
import PanelLoad
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(20))) struct Operability {
    @Test func metricsCountRequestsOnTheirOwnPortAndEachRequestLogsOneJSONLine() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 20)
        defer { temp.remove() }
        let server = try await PanelProcess.start(
            binary: executable, databasePath: temp.path, publicDirectory: TestPaths.publicDirectory,
            arguments: ["--metrics-port", "0", "--log-format", "json"],
            logFile: temp.directory.appendingPathComponent("server.log"))
        for _ in 0..<3 { #expect(try await LoadDriver.status(of: server.baseURL + "/login") == 200) }
        #expect(try await LoadDriver.status(of: server.baseURL + "/metrics") == 404, "never on the staff port")

        let metricsPort = try #require(PanelProcess.port(after: "metrics listening on", in: server.output))
        let metrics = try await OneRequest("http://127.0.0.1:\(metricsPort)/metrics").send()
        #expect(metrics.status == 200)
        let loginCount = metrics.body.split(separator: "\n").first {
            $0.hasPrefix("hb_requests{") && $0.contains("http_route=\"/login\"")
                && $0.contains("http_request_method=\"GET\"")
        }
        #expect(loginCount?.hasSuffix(" 3") == true, "\(metrics.body)")
        #expect(metrics.body.contains("panel_database_access_seconds"))
        #expect(metrics.body.contains("panel_job_runs_total{job=\"sweeper\",outcome=\"success\"}"))
        #expect(try await server.terminate(within: .seconds(30)) == 0)

        let lines = server.output.split(separator: "\n").compactMap { line in
            try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
        let requests = lines.filter { $0["message"] as? String == "request" }.compactMap {
            $0["metadata"] as? [String: Any]
        }
        let logins = requests.filter { $0["route"] as? String == "/login" && $0["method"] as? String == "GET" }
        #expect(logins.count == 3)
        #expect(
            logins.allSatisfy {
                $0["status"] as? String == "200" && $0["hb.request.id"] != nil && $0["staff_id"] as? String == "-"
            })
    }

    /// Run from any other folder, the panel was unstyled and its scripts missing: the
    /// files ship in the build as a resource bundle.
    @Test func staticFilesAreServedFromAnyWorkingDirectory() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 5)
        defer { temp.remove() }
        let elsewhere = temp.directory.appendingPathComponent("elsewhere", isDirectory: true)
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let server = try await PanelProcess.start(
            binary: executable, databasePath: temp.path, publicDirectory: nil,
            workingDirectory: elsewhere, logFile: temp.directory.appendingPathComponent("server.log"))
        let css = try await OneRequest(server.baseURL + "/static/css/app.css").send()
        #expect(css.status == 200 && css.body.contains(":root"))
        #expect(try await LoadDriver.status(of: server.baseURL + "/static/js/suggest.js") == 200)
        #expect(try await LoadDriver.status(of: server.baseURL + "/static/favicon.svg") == 200)
        #expect(try await server.terminate(within: .seconds(30)) == 0)
        let missing = try await runPanel(["serve", "--db", temp.path, "--public-directory", "/no/such/folder"])
        #expect(missing.status != 0 && missing.stderr.contains("is not a folder"))
    }

    @Test func anUnknownLogLevelIsRefusedWithASentence() async throws {
        let bad = try await runPanel(["serve", "--db", "/nonexistent.sqlite", "--log-level", "loud"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("--log-level is \"loud\"; it must be one of trace, debug, info"))
    }

    @Test func aTestUserDomainThatIsNotADomainIsRefusedAtStart() async throws {
        for (command, domain) in [
            ("serve", "corp test"), ("serve", "@corp.test"), ("demo", "localhost"), ("serve", "10.0.0.1"),
        ] {
            // A demo that got past the check would fail on the folder that is not there, not serve.
            let bad = try await runPanel([
                command, "--db", "/nonexistent/folder/demo.sqlite", "--test-user-domain", "corp.test",
                "--test-user-domain", domain,
            ])
            #expect(bad.status == 1, "\(command) \(domain)")
            #expect(
                bad.stderr.contains("--test-user-domain \"\(domain)\" is not a domain, such as corp.example.com"),
                "\(bad.stderr)")
        }
    }

    @Test func dashboardIntervalsOutOfRangeAreRefusedWithASentence() async throws {
        let refresh = try await runPanel(["serve", "--db", "/nonexistent.sqlite", "--dashboard-refresh", "0"])
        #expect(refresh.status != 0 && refresh.stderr.contains("--dashboard-refresh must be from 1 to 86400 seconds"))
        let full = try await runPanel(["serve", "--db", "/nonexistent.sqlite", "--dashboard-full-count", "five"])
        #expect(full.status != 0 && full.stderr.contains("dashboard-full-count"))
    }

    @Test func reminderOptionsOutOfRangeAreRefusedWithASentence() async throws {
        for (command, option, value, sentence) in [
            ("serve", "--reminder-refresh", "0", "--reminder-refresh must be from 1 to 3600 seconds"),
            ("demo", "--reminder-on-time-target", "101", "--reminder-on-time-target must be a percent from 0 to 100"),
            ("serve", "--reminder-success-target", "-1", "--reminder-success-target must be a percent from 0 to 100"),
            (
                "serve", "--reminder-overdue-threshold", "-5",
                "--reminder-overdue-threshold must be from 0 to 10000000 reminders"
            ),
            ("demo", "--app-data-silence-minutes", "0", "--app-data-silence-minutes must be from 1 to 10080 (a week)"),
            ("serve", "--usual-hour-interval", "0", "--usual-hour-interval must be from 1 to 86400 seconds"),
            ("demo", "--usual-hour-interval", "86401", "--usual-hour-interval must be from 1 to 86400 seconds"),
        ] {
            // "--option=-1": a negative value on its own would read as another option.
            let bad = try await runPanel([command, "--db", "/nonexistent/folder/demo.sqlite", "\(option)=\(value)"])
            #expect(bad.status != 0, "\(command) \(option) \(value)")
            #expect(bad.stderr.contains(sentence), "\(option): \(bad.stderr)")
        }
    }

    /// Each limit of `serve` at both ends: the value just outside is refused with its own sentence, the
    /// ends themselves pass (all at once: the command then fails only on the missing database).
    @Test func everyServeLimitRefusesJustOutsideItAndTakesItsEnds() async throws {
        let limits: [(option: String, low: Double, high: Double, refusal: String)] = [
            ("--max-connections", 16, 1_000_000, "--max-connections must be from 16 to 1000000"),
            (
                "--max-connections-per-address", 1, 1_000_000,
                "--max-connections-per-address must be from 1 to 1000000"
            ),
            ("--request-timeout", 1, 3_600, "--request-timeout must be from 1 to 3600 seconds"),
            ("--body-timeout", 1, 3_600, "--body-timeout must be from 1 to 3600 seconds"),
            ("--metrics-port", 0, 65_535, "--metrics-port must be from 0 to 65535"),
            ("--frequency-cap", 1, 50, "--frequency-cap must be from 1 to 50"),
            ("--dashboard-refresh", 1, 86_400, "--dashboard-refresh must be from 1 to 86400 seconds"),
            ("--dashboard-full-count", 10, 86_400, "--dashboard-full-count must be from 10 to 86400 seconds"),
            ("--reminder-refresh", 1, 3_600, "--reminder-refresh must be from 1 to 3600 seconds"),
            ("--journey-interval", 1, 3_600, "--journey-interval must be from 1 to 3600 seconds"),
            ("--usual-hour-interval", 1, 86_400, "--usual-hour-interval must be from 1 to 86400 seconds"),
            ("--reminder-on-time-target", 0, 100, "--reminder-on-time-target must be a percent from 0 to 100"),
            ("--reminder-success-target", 0, 100, "--reminder-success-target must be a percent from 0 to 100"),
            (
                "--reminder-overdue-threshold", 0, 10_000_000,
                "--reminder-overdue-threshold must be from 0 to 10000000 reminders"
            ),
            ("--app-data-silence-minutes", 1, 10_080, "--app-data-silence-minutes must be from 1 to 10080 (a week)"),
        ]
        let serve = ["serve", "--db", "/nonexistent/folder/panel.sqlite"]
        // "--option=-1": a negative value on its own would read as another option.
        func value(_ number: Double) -> String { String(Int(number)) }
        for limit in limits {
            for outside in [limit.low - 1, limit.high + 1] {
                let bad = try await runPanel(serve + ["\(limit.option)=\(value(outside))"])
                #expect(bad.status != 0, "\(limit.option) \(value(outside))")
                #expect(bad.stderr.contains(limit.refusal), "\(limit.option) \(value(outside)): \(bad.stderr)")
            }
        }
        for low in [true, false] {
            let ends = try await runPanel(serve + limits.map { "\($0.option)=\(value(low ? $0.low : $0.high))" })
            for limit in limits {
                #expect(!ends.stderr.contains(limit.refusal), "\(limit.option) at its end: \(ends.stderr)")
            }
            #expect(ends.stderr.contains("panel.sqlite"), "only the database is refused: \(ends.stderr)")
        }
    }
}
