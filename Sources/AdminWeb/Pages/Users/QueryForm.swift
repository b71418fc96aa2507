import AdminDomain
import Foundation
import Hummingbird

/// A query string's fields as typed: kept as text to show again in the form, and turned
/// into a domain query through a `FieldReader`, which refuses what it does not know.
protocol QueryForm: Sendable, Equatable {
    /// Field names in the order links write them.
    static var fieldNames: [String] { get }
    var fields: [String: String] { get set }
    init()
}

extension QueryForm {
    init(request: Request) {
        self.init(fields: [:])
        let query = request.queryFields
        for name in Self.fieldNames {
            let value = String(TypedText.trimmed(query[name] ?? "").prefix(320))
            if !value.isEmpty { fields[name] = value }
        }
    }

    init(fields: [String: String]) {
        self.init()
        self.fields = fields
    }

    subscript(_ name: String) -> String { fields[name] ?? "" }

    var queryItems: [URLQueryItem] {
        Self.fieldNames.compactMap { name in fields[name].map { URLQueryItem(name: name, value: $0) } }
    }

    func with(_ changes: [String: String?]) -> Self {
        var copy = self
        for (name, value) in changes { copy.fields[name] = value }
        return copy
    }
}

/// Reads a form's fields into typed values. A field that holds something it does not know
/// adds a sentence to `problems` and reads as nil: an unknown value is refused, never
/// replaced by another (an unknown list must not become the default list).
struct FieldReader {
    let fields: [String: String]
    var problems: [String] = []
    /// For a sentence about one field, that field's name: forms mark it there too.
    var problemFields: [String: String] = [:]

    init(_ form: some QueryForm) {
        fields = form.fields
    }

    mutating func term<Term: RawRepresentable<String> & CaseIterable>(_ name: String, _ label: String) -> Term? {
        choice(name, label, in: Term.allCases.map(\.rawValue)).flatMap(Term.init(rawValue:))
    }

    /// A field's value when it is one of `allowed`.
    mutating func choice(_ name: String, _ label: String, in allowed: [String]) -> String? {
        guard let value = fields[name] else { return nil }
        guard allowed.contains(value) else {
            problem("There is no \(label) “\(value)”: choose one of \(allowed.joined(separator: ", ")).", field: name)
            return nil
        }
        return value
    }

    /// A day 'YYYY-MM-DD'.
    mutating func day(_ name: String, _ label: String) -> Day? {
        guard let value = fields[name] else { return nil }
        guard let day = Day(value) else {
            problem("\(label) must be a date written YYYY-MM-DD.", field: name)
            return nil
        }
        return day
    }

    /// Two days bounding a range, both included. A range that ends before it starts is
    /// refused with a sentence, never served as an empty list or estimated as "about 0".
    mutating func dayRange(from: String, _ fromLabel: String, to: String, _ toLabel: String, what: String) -> DayRange {
        let range = DayRange(from: day(from, fromLabel), to: day(to, toLabel))
        if let sentence = range.reversedSentence(what) {
            problems.append(sentence)
            return DayRange()
        }
        return range
    }

    /// Where a page starts: a key as stored and a row id. A link whose id is not a number
    /// was not made by the panel.
    mutating func cursor(key: String, id: String) -> (key: String?, id: Int64)? {
        guard let text = fields[id] else {
            // A key without its id is no link the panel writes: refused, not read as page one.
            if fields[key] != nil { brokenLink() }
            return nil
        }
        // Row ids start at 1: a link the panel writes never holds 0 or less.
        guard let number = Int64(text), number >= 1 else {
            brokenLink()
            return nil
        }
        return (fields[key], number)
    }

    /// A page link whose key is not one the panel writes.
    mutating func brokenLink() {
        problems.append("That page link is broken: go back to the first page.")
    }
}

struct UserSearchForm: QueryForm {
    static let fieldNames = ["by", "q", "after", "before"]
    var fields: [String: String] = [:]
    init() {}

    /// What the box recognises by itself; the other choices name one field.
    static let anything = "any"

    /// The query (nil before anything is typed), or the sentences that refuse it.
    var query: (UserSearchQuery?, [String]) {
        var reader = FieldReader(self)
        let by = reader.choice("by", "search by", in: [Self.anything] + UserSearchField.allCases.map(\.rawValue))
        let field = by.flatMap(UserSearchField.init(rawValue:))
        let text = self["q"]
        if field == .id, !text.isEmpty, UserSearchField.recognised(in: text) != .id {
            reader.problems.append("A user id is a number, such as 123 or #123: “\(text)” is not one.")
        }
        // A name scan's place is a user id; a link the panel writes never holds both ways.
        let searchesNames = field == .name || (field == nil && UserSearchField.recognised(in: text) == .name)
        let places = [fields["after"], fields["before"]].compactMap { $0 }
        if places.count > 1 || (searchesNames && places.contains { (Int64($0) ?? 0) < 1 }) { reader.brokenLink() }
        guard reader.problems.isEmpty, !text.isEmpty else { return (nil, reader.problems) }
        return (UserSearchQuery(field: field, text: text, after: fields["after"], before: fields["before"]), [])
    }
}

struct ItemsForm: QueryForm {
    static let fieldNames = [
        "kind", "state", "category", "storage", "name", "after", "after_id", "before", "before_id",
    ]
    var fields: [String: String] = [:]
    /// A control character in a field, refused with this sentence rather than dropped.
    var controlProblem: String?
    init() {}

    /// The longest name searched for: longer is no item's name, and the audit row stays short.
    static let nameLimit = 100

    /// The form as the request's query has it, a control character in any field refused.
    init(checking request: Request) {
        self.init(request: request)
        let labels = [
            "name": "the name searched", "kind": "the kind", "state": "the status", "category": "the category",
            "storage": "the storage",
        ]
        for name in Self.fieldNames where controlProblem == nil {
            if let problem = request.queryFields[name].flatMap({
                TypedText.controlProblem(labels[name] ?? "the field “\(name)”", in: $0)
            }) {
                controlProblem = "Nothing was listed: \(problem). Remove it and try again."
            }
        }
    }

    var query: (filter: UserItems.Filter, position: UserItems.Position, problems: [String]) {
        var reader = FieldReader(self)
        if let controlProblem { reader.problems.append(controlProblem) }
        let kind: ItemKind = reader.term("kind", "kind of item") ?? .food
        let categories = kind == .food ? UserItems.foodCategories : UserItems.documentTypes
        let name = fields["name"]
        if let name, name.count > Self.nameLimit {
            reader.problems.append("A name to search for is at most \(Self.nameLimit) characters.")
        }
        let filter = UserItems.Filter(
            kind: kind, state: reader.term("state", "status"),
            category: reader.choice("category", kind == .food ? "category" : "document type", in: categories),
            storage: kind == .food ? reader.choice("storage", "storage", in: UserItems.storages) : nil,
            name: name)
        let after = Self.cursor(&reader, key: "after", id: "after_id")
        let before = Self.cursor(&reader, key: "before", id: "before_id")
        var position = UserItems.Position.first
        switch (after, before) {
        case (let after?, nil): position = .after(after)
        case (nil, let before?): position = .before(before)
        case (nil, nil): break
        // A link the panel writes holds one or the other.
        case (_?, _?): reader.brokenLink()
        }
        return (filter, position, reader.problems)
    }

    private static func cursor(_ reader: inout FieldReader, key: String, id: String) -> UserItems.Cursor? {
        guard let position = reader.cursor(key: key, id: id) else { return nil }
        guard let nearness = position.key.flatMap({ Int64($0) }) else {
            reader.brokenLink()
            return nil
        }
        return UserItems.Cursor(nearness: nearness, id: position.id)
    }

    var hasCursor: Bool { fields["after_id"] != nil || fields["before_id"] != nil }

    /// The page as its audit row names it among the pages seen: "documents, expired, named:
    /// x, a later page".
    var seen: String {
        var parts = [fields["kind"] == ItemKind.document.rawValue ? "documents" : "food items"]
        for name in ["state", "category", "storage"] { if let value = fields[name] { parts.append(value) } }
        if let name = fields["name"] { parts.append("named: \(String(name.prefix(Self.nameLimit)))") }
        if hasCursor { parts.append("a later page") }
        return parts.joined(separator: ", ")
    }

    /// The same list from its first page.
    var firstPage: ItemsForm { with(["after": nil, "after_id": nil, "before": nil, "before_id": nil]) }

    func after(_ cursor: UserItems.Cursor) -> ItemsForm {
        firstPage.with(["after": String(cursor.nearness), "after_id": String(cursor.id)])
    }

    func before(_ cursor: UserItems.Cursor) -> ItemsForm {
        firstPage.with(["before": String(cursor.nearness), "before_id": String(cursor.id)])
    }
}

struct ActivityForm: QueryForm {
    static let fieldNames = [
        "bucket", "plan", "status", "platform", "from", "to", "sort", "dir", "after", "after_id", "before", "before_id",
    ]
    var fields: [String: String] = [:]
    init() {}

    /// The list and where its page starts (after a cursor, Next; or before one, Previous),
    /// or sentences for the fields that were not valid.
    var query: (list: ActivityListQuery, cursor: ActivityCursor?, problems: [String]) {
        let (list, after, _, problems) = pageQuery
        return (list, after, problems)
    }

    var pageQuery: (list: ActivityListQuery, after: ActivityCursor?, before: ActivityCursor?, problems: [String]) {
        var reader = FieldReader(self)
        let filter = UserFilter(
            bucket: reader.term("bucket", "activity list") ?? .active,
            plan: reader.term("plan", "plan"), status: reader.term("status", "status"),
            platform: reader.term("platform", "platform"),
            signedUp: reader.dayRange(
                from: "from", "Signed up from", to: "to", "Signed up to", what: "The sign-up range"))
        let direction: SortOrder = reader.term("dir", "sort direction") ?? .descending
        let list = ActivityListQuery(
            filter, sort: reader.term("sort", "order") ?? .lastActive, ascending: direction == .ascending)
        let after = reader.cursor(key: "after", id: "after_id").map { ActivityCursor(key: $0.key, id: $0.id) }
        let before = reader.cursor(key: "before", id: "before_id").map { ActivityCursor(key: $0.key, id: $0.id) }
        // A link the panel writes holds one or the other.
        if after != nil, before != nil { reader.brokenLink() }
        return (list, after, before, reader.problems)
    }

    /// The list's own address, written from what was understood: what the audit log records.
    init(_ list: ActivityListQuery) {
        let filter = list.filter
        fields = ["bucket": filter.bucket.rawValue]
        fields["plan"] = filter.plan?.rawValue
        fields["status"] = filter.status?.rawValue
        fields["platform"] = filter.platform?.rawValue
        fields["from"] = filter.signedUp.from?.text
        fields["to"] = filter.signedUp.to?.text
        if list.sort != .lastActive { fields["sort"] = list.sort.rawValue }
        if list.ascending { fields["dir"] = SortOrder.ascending.rawValue }
    }

    var hasCursor: Bool { fields["after_id"] != nil || fields["before_id"] != nil }

    /// The same list from its first page.
    var firstPage: ActivityForm { with(["after": nil, "after_id": nil, "before": nil, "before_id": nil]) }

    /// The first page sorted by `sort` (nil: last active), `order`.
    func sorted(by sort: ActivitySort?, _ order: SortOrder) -> ActivityForm {
        firstPage.with(["sort": sort?.rawValue, "dir": order == .descending ? nil : order.rawValue])
    }
}

struct ActivityLogForm: QueryForm {
    static let fieldNames = ["kind", "from", "to", "before", "before_id"]
    var fields: [String: String] = [:]
    init() {}

    var query: (filter: UserActivityLog.Filter, cursor: ActivityCursor?, problems: [String]) {
        var reader = FieldReader(self)
        let kind = reader.choice("kind", "kind of event", in: UserActivityLog.kinds)
        let days = reader.dayRange(from: "from", "From", to: "to", "To", what: "The date range")
        let filter = UserActivityLog.Filter(kind: kind, from: days.from, to: days.to)
        let cursor = reader.cursor(key: "before", id: "before_id").flatMap { position in
            position.key.map { ActivityCursor(key: $0, id: position.id) }
        }
        return (filter, cursor, reader.problems)
    }

    var hasCursor: Bool { fields["before_id"] != nil }
}
