import AdminDomain

extension SortOrder {
    /// A list's `dir` in its query string: `defaultOrder` when absent, refused with a sentence
    /// when it is neither asc nor desc.
    init(query: FormFields, default defaultOrder: SortOrder) throws {
        guard let text = query["dir"] else {
            self = defaultOrder
            return
        }
        guard let order = SortOrder(rawValue: text) else {
            throw PanelError(
                status: .badRequest,
                sentence: "There is no sort direction “\(text.prefix(60))”: choose asc or desc.")
        }
        self = order
    }
}
