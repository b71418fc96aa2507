import AdminDomain
import HTMLRender

/// A user's items, with the way back to their profile.
struct UserItemsView: HTMLComponent {
    let model: UserItemsModel
    let viewer: Viewer

    var content: HTMLNode {
        let account = model.owner.account
        return PageLayout(pageTitle: "Items of \(account.email)", viewer: viewer, activeSection: .users) {
            h1 { "Items" }
            p {
                a(.href(SiteURL.user(id: account.id).href)) { UserText(text: account.shownName) }
                " · user #\(account.id) · "
                UserText(text: account.email)
            }
            ItemsPanel(
                userID: account.id, calendar: model.owner.calendar, food: model.owner.food,
                documents: model.owner.documents, itemsForm: model.form, filter: model.filter, items: model.items,
                problems: model.problems)
        }.content
    }
}
