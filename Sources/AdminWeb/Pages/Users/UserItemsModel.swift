import AdminDomain
import Foundation

/// One user's items, filtered and paged, on a page of their own: their row and counts,
/// then the page; none of the profile's other panels (issue 46: each Next of a user with
/// 18,001 items rebuilt the whole profile in 1.6 to 1.9 s).
struct UserItemsModel: PageModel {
    let owner: UserItems.Owner
    let form: ItemsForm
    let filter: UserItems.Filter
    /// nil when the form was refused: `problems` says why.
    let items: UserItems.Page?
    var problems: [String] = []

    static func load(_ source: UserItems, _ input: (id: Int64, form: ItemsForm)) async throws -> UserItemsModel {
        let (id, form) = input
        guard let owner = try await source.owner(id: id) else { throw PanelError.notFound("No user #\(id).") }
        let (filter, position, problems) = form.query
        guard problems.isEmpty else {
            return UserItemsModel(owner: owner, form: form, filter: filter, items: nil, problems: problems)
        }
        let items = try await source.page(userID: id, calendar: owner.calendar, filter: filter, at: position)
        return UserItemsModel(owner: owner, form: form, filter: filter, items: items)
    }
}
