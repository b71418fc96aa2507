import Foundation
import Testing

@testable import AdminDomain
@testable import AdminWeb

/// The reports' CSVs with the usual hour against its control: each row as wide as the header,
/// the figures where the header says.
@Suite(.timeLimit(.minutes(20))) struct TimingReportCSV {
    @Test func theCampaignReportHasTheUsualHourAndTheControlAsRows() throws {
        var report = SnapshotsCampaignParts.impact
        report.timing = TimingComparison(
            usual: .init(users: 900, openJudged: 900, openedInDay: 180, judged: 900, converted: 90),
            control: .init(users: 100, openJudged: 100, openedInDay: 10, judged: 100, converted: 5))
        let rows = CampaignReportCSV.rows(report)
        #expect(rows.allSatisfy { $0.count == CampaignReportCSV.header.count })
        let header = CampaignReportCSV.header
        let control = try #require(rows.first { $0[0] == "timing" && $0[1] == "control_fixed_time" })
        #expect(
            Self.cell(control, header, "users") == "100" && Self.cell(control, header, "opened") == "10"
                && Self.cell(control, header, "converted") == "5")
        let goal = try #require(rows.first { $0[0] == "timing" && $0[1] == "usual_hour (lift: goal)" })
        // 90/900 − 5/100 = 0.05, as the lift column's fraction.
        #expect(Self.cell(goal, header, "users") == "900" && Self.cell(goal, header, "lift") == "0.050000")
        let opens = try #require(rows.first { $0[0] == "timing" && $0[1] == "usual_hour (lift: opened within a day)" })
        #expect(Self.cell(opens, header, "lift") == "0.100000", "180/900 − 10/100")
        #expect(
            CampaignReportCSV.rows(SnapshotsCampaignParts.impact).allSatisfy { $0[0] != "timing" },
            "no rows without a usual hour")
    }

    @Test func theJourneyReportHasTheUsualHourAndTheControlAsRows() throws {
        var report = SnapshotsJourneys.report
        report.total.timing = TimingComparison(
            usual: .init(users: 40, openedInDay: 12, judged: 30, converted: 9),
            control: .init(users: 10, openedInDay: 1, judged: 10, converted: 1))
        let rows = JourneyReportCSV.rows(report)
        #expect(rows.allSatisfy { $0.count == JourneyReportCSV.header.count })
        let header = JourneyReportCSV.header
        let usual = try #require(rows.first { $0[0] == "timing_usual_hour" })
        #expect(
            Self.cell(usual, header, "entered") == "40" && Self.cell(usual, header, "opened") == "12"
                && Self.cell(usual, header, "sent_judged") == "30"
                && Self.cell(usual, header, "sent_converted") == "9" && Self.cell(usual, header, "lift") == "0.200000",
            "9/30 − 1/10")
        let control = try #require(rows.first { $0[0] == "timing_control_own_rule" })
        #expect(Self.cell(control, header, "entered") == "10" && Self.cell(control, header, "lift") == "")
        #expect(JourneyReportCSV.rows(SnapshotsJourneys.report).allSatisfy { !$0[0].hasPrefix("timing") })
    }

    /// The row's cell under the header's column `name`.
    static func cell(_ row: [String], _ header: [String], _ name: String) -> String? {
        header.firstIndex(of: name).map { row[$0] }
    }
}
