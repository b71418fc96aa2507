/// Which way a sortable column runs. Read from `dir` in a list's URL; anything else is
/// refused with a sentence, never read as the default.
enum SortOrder: String, CaseIterable, Sendable {
    case ascending = "asc"
    case descending = "desc"

    var reversed: SortOrder { self == .ascending ? .descending : .ascending }

    /// The `aria-sort` value of a heading sorted this way.
    var ariaSort: String { self == .ascending ? "ascending" : "descending" }
}
