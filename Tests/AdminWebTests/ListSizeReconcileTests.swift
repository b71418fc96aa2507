import Testing

@testable import AdminDomain
@testable import AdminWeb

/// An activity list's estimated size never contradicts the rows its first page shows.
@Suite(.timeLimit(.minutes(20))) struct ListSizeAgainstTheRowsShown {
    static func page(_ rows: Int, goesOn: Bool) -> ActivityPage {
        let users = (0..<rows).map {
            UserSummary(
                id: Int64($0 + 1), email: "u\($0)@odd.test", displayName: nil, plan: Stored("free"),
                status: Stored("active"), createdAt: "2026-01-01 00:00:00", lastActiveAt: nil)
        }
        return ActivityPage(
            users: users, next: goesOn ? ActivityCursor(key: nil, id: Int64(rows)) : nil, stoppedOnBudget: false)
    }

    @Test func aFirstPageThatIsTheWholeListIsItsExactSize() {
        let size = ActivityListModel.reconciled(
            ListSize(value: 0, isEstimate: true, margin: 0), with: Self.page(6, goesOn: false), isFirstPage: true)
        #expect(size == ListSize(value: 6, isEstimate: false))
    }

    @Test func anEstimateBelowTheRowsShownGivesWayToAFloor() {
        let size = ActivityListModel.reconciled(
            ListSize(value: 6, isEstimate: true, margin: 11), with: Self.page(18, goesOn: true), isFirstPage: true)
        #expect(size == ListSize(value: 18, isEstimate: true, isAtLeast: true))
        #expect(ActivityListView.sentence(size).hasPrefix("At least 18 users"))
        let fine = ListSize(value: 400, isEstimate: true, margin: 40)
        #expect(ActivityListModel.reconciled(fine, with: Self.page(50, goesOn: true), isFirstPage: true) == fine)
        #expect(
            ActivityListModel.reconciled(
                ListSize(value: 0, isEstimate: true, margin: 0), with: Self.page(6, goesOn: false),
                isFirstPage: false
            ).value == 0, "a later page does not know the pages before it")
    }
}
