import AdminDomain
import Foundation
import Hummingbird

/// A query string's fields as typed: kept as text to show again in the form, and turned
/// into a domain query only where valid. Anything unknown is dropped, never an error.
protocol QueryForm: Sendable, Equatable {
    /// Field names in the order links write them.
    static var fieldNames: [String] { get }
    var fields: [String: String] { get set }
    init()
}

extension QueryForm {
    init(request: Request) {
        self.init(fields: [:])
        let query = request.uri.queryParameters
        for name in Self.fieldNames {
            let value = String((query.get(name) ?? "").trimmingCharacters(in: .whitespacesAndNewlines).prefix(320))
            if !value.isEmpty { fields[name] = value }
        }
    }

    init(fields: [String: String]) {
        self.init()
        self.fields = fields
    }

    subscript(_ name: String) -> String { fields[name] ?? "" }

    /// A field's value when it is one of `allowed`.
    func choice(_ name: String, in allowed: [String]) -> String? {
        fields[name].flatMap { allowed.contains($0) ? $0 : nil }
    }

    /// A field's value as one of the terms of `type`.
    func term<Term: RawRepresentable<String>>(_ name: String, _ type: Term.Type) -> Term? {
        fields[name].flatMap(Term.init(rawValue:))
    }

    /// A day 'YYYY-MM-DD', or nil (and a problem when something else was typed).
    func day(_ name: String, label: String, problems: inout [String]) -> Day? {
        guard let value = fields[name] else { return nil }
        guard let day = Day(value) else {
            problems.append("\(label) must be a date written YYYY-MM-DD.")
            return nil
        }
        return day
    }

    var queryItems: [URLQueryItem] {
        Self.fieldNames.compactMap { name in fields[name].map { URLQueryItem(name: name, value: $0) } }
    }

    func with(_ changes: [String: String?]) -> Self {
        var copy = self
        for (name, value) in changes { copy.fields[name] = value }
        return copy
    }
}

struct UserSearchForm: QueryForm {
    static let fieldNames = ["by", "q", "after"]
    var fields: [String: String] = [:]
    init() {}

    var query: UserSearchQuery? {
        guard !self["q"].isEmpty else { return nil }
        return UserSearchQuery(field: term("by", UserSearchField.self) ?? .email,
                               text: self["q"], after: fields["after"])
    }
}

struct ItemsForm: QueryForm {
    static let fieldNames = ["kind", "state", "category", "storage", "after", "after_id"]
    var fields: [String: String] = [:]
    init() {}

    var filter: UserItems.Filter {
        let kind = term("kind", ItemKind.self) ?? .food
        let categories = kind == .food ? UserItems.foodCategories : UserItems.documentTypes
        return UserItems.Filter(kind: kind,
                                state: term("state", UserItems.State.self),
                                category: choice("category", in: categories),
                                storage: kind == .food ? choice("storage", in: UserItems.storages) : nil)
    }

    /// The stored expiry date is taken as it is: the app may hold dates that are not real days.
    var cursor: UserItems.Cursor? {
        guard let date = fields["after"], date.count <= 32, let id = fields["after_id"].flatMap(Int64.init) else { return nil }
        return UserItems.Cursor(expiryDate: date, id: id)
    }
}

struct ActivityForm: QueryForm {
    static let fieldNames = ["bucket", "plan", "status", "platform", "from", "to", "sort", "after", "after_id"]
    var fields: [String: String] = [:]
    init() {}

    /// The list, and sentences for fields that were not valid (those are left out).
    var query: (ActivityListQuery, [String]) {
        var problems: [String] = []
        let filter = UserFilter(
            bucket: term("bucket", ActivityBucket.self) ?? .active,
            plan: term("plan", Plan.self), status: term("status", AccountStatus.self), platform: term("platform", Platform.self),
            signedUp: DayRange(from: day("from", label: "Signed up from", problems: &problems),
                               to: day("to", label: "Signed up to", problems: &problems)))
        return (ActivityListQuery(filter, sort: term("sort", ActivitySort.self) ?? .lastActive), problems)
    }

    var cursor: ActivityCursor? {
        fields["after_id"].flatMap(Int64.init).map { ActivityCursor(key: fields["after"], id: $0) }
    }

    /// The same list from its first page.
    var firstPage: ActivityForm { with(["after": nil, "after_id": nil]) }
}

struct ActivityLogForm: QueryForm {
    static let fieldNames = ["kind", "from", "to", "before", "before_id"]
    var fields: [String: String] = [:]
    init() {}

    var filter: (UserActivityLog.Filter, [String]) {
        var problems: [String] = []
        let filter = UserActivityLog.Filter(kind: choice("kind", in: UserActivityLog.kinds),
                                            from: day("from", label: "From", problems: &problems),
                                            to: day("to", label: "To", problems: &problems))
        return (filter, problems)
    }

    var cursor: ActivityCursor? {
        guard let at = fields["before"], let id = fields["before_id"].flatMap(Int64.init) else { return nil }
        return ActivityCursor(key: at, id: id)
    }
}
