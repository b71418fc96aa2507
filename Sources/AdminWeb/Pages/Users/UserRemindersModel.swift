import AdminDomain
import Foundation
import Hummingbird

/// A user's reminders page: the list as asked for, or the sentences refusing the query.
struct UserRemindersModel: PageModel {
    let userID: Int64
    let form: RemindersForm
    let filter: UserReminders.Filter
    /// What was read: whose reminders and their summary always; its rows are listed only
    /// when the query was understood (`problems` empty).
    let page: UserReminders.Page
    var problems: [String] = []

    /// The user's timezone, or nil when the stored name is not one (times then in UTC, said so).
    var zone: TimeZone? { UserCalendar.zone(named: page.timezone) }

    static func load(_ source: UserReminders, _ input: (id: Int64, form: RemindersForm, now: Date)) async throws
        -> UserRemindersModel
    {
        let (id, form, now) = input
        let (filter, number, problems) = form.query
        // A refused query still reads the first page's summary, so the page names whose reminders.
        let understood = problems.isEmpty
        guard
            let page = try await source.page(
                userID: id, filter: understood ? filter : .init(), number: understood ? number : 1, now: now)
        else { throw PanelError.notFound("No user #\(id).") }
        guard understood else {
            return UserRemindersModel(userID: id, form: form, filter: filter, page: page, problems: problems)
        }
        if number > page.pageCount {
            return UserRemindersModel(
                userID: id, form: form, filter: filter, page: page,
                problems: [
                    "There is no page \(number): this list has \(Format.count(page.pageCount, "page", "pages"))."
                ])
        }
        return UserRemindersModel(userID: id, form: form, filter: filter, page: page)
    }
}
