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

    /// A day 'YYYY-MM-DD', or nil (and a problem when something else was typed).
    func day(_ name: String, label: String, problems: inout [String]) -> String? {
        guard let value = fields[name] else { return nil }
        guard AuditFilter.isDay(value) else {
            problems.append("\(label) must be a date written YYYY-MM-DD.")
            return nil
        }
        return value
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
        return UserSearchQuery(field: choice("by", in: UserSearchField.allCases.map(\.rawValue)).flatMap(UserSearchField.init) ?? .email,
                               text: self["q"], after: fields["after"])
    }
}

struct ItemsForm: QueryForm {
    static let fieldNames = ["kind", "state", "category", "storage", "after", "after_id"]
    var fields: [String: String] = [:]
    init() {}

    var filter: UserItems.Filter {
        let kind = choice("kind", in: UserItems.Kind.allCases.map(\.rawValue)).flatMap(UserItems.Kind.init) ?? .food
        let categories = kind == .food ? UserItems.foodCategories : UserItems.documentTypes
        return UserItems.Filter(kind: kind,
                                state: choice("state", in: UserItems.State.allCases.map(\.rawValue)).flatMap(UserItems.State.init),
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

    static let plans = ["free", "premium"]
    static let statuses = ["active", "suspended", "deleted"]
    static let platforms = ["ios", "android"]

    /// The filter, and sentences for fields that were not valid (those are left out).
    var filter: (ActivityFilter, [String]) {
        var problems: [String] = []
        let filter = ActivityFilter(
            bucket: choice("bucket", in: ActivityBucket.allCases.map(\.rawValue)).flatMap(ActivityBucket.init) ?? .active,
            plan: choice("plan", in: Self.plans), status: choice("status", in: Self.statuses),
            platform: choice("platform", in: Self.platforms),
            signedUpFrom: day("from", label: "Signed up from", problems: &problems),
            signedUpTo: day("to", label: "Signed up to", problems: &problems),
            sort: choice("sort", in: ActivityFilter.Sort.allCases.map(\.rawValue)).flatMap(ActivityFilter.Sort.init) ?? .lastActive)
        return (filter, problems)
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
