import AdminDomain

/// The query of a user's reminders page: status, kind, one item, page number. A value the
/// page does not know is refused with a sentence (a 400 page), never read as another.
struct RemindersForm: QueryForm {
    static let fieldNames = ["status", "kind", "item", "page"]
    var fields: [String: String] = [:]
    init() {}

    var query: (filter: UserReminders.Filter, page: Int, problems: [String]) {
        var reader = FieldReader(self)
        let status: UserReminders.Status? = reader.term("status", "reminder status")
        let kind: ItemKind? = reader.term("kind", "kind of item")
        var item: Int64?
        if let text = fields["item"] {
            if let id = Int64(text), id > 0 {
                if fields["kind"] == nil {
                    reader.problems.append("An item is chosen with its kind: add kind=food or kind=document.")
                } else {
                    item = id
                }
            } else {
                reader.problems.append("There is no item “\(text)”: an item is a number, such as 123.")
            }
        }
        var page = 1
        if let text = fields["page"] {
            if let number = Int(text), number >= 1 {
                page = number
            } else {
                reader.problems.append("There is no page “\(text)”: pages are numbered 1, 2, 3 and so on.")
            }
        }
        return (UserReminders.Filter(status: status, kind: kind, itemID: item), page, reader.problems)
    }
}
