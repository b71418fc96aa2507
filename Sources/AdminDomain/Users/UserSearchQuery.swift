import Foundation
import GRDB

public enum UserSearchField: String, CaseIterable, Sendable {
    case email, id, name

    /// How the search box reads text when nobody chose what to search: `123` or `#123` is a
    /// user id, text with a space in it a name, anything else an email or the start of one
    /// (and a name when no email starts with it, see `UserDirectory.search`).
    public static func recognised(in text: String) -> UserSearchField {
        let digits = text.hasPrefix("#") ? text.dropFirst() : Substring(text)
        if !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) { return .id }
        if text.contains(where: \.isWhitespace) { return .name }
        return .email
    }
}

public struct UserSearchQuery: Sendable, Equatable {
    /// nil: recognised from the text.
    public var field: UserSearchField?
    public var text: String
    /// Where the previous page stopped: the last email shown, or the user id a name scan reached.
    public var after: String?
    /// Paging back: the page just before this email, or the matches just above this user id.
    public var before: String?

    public init(field: UserSearchField?, text: String, after: String? = nil, before: String? = nil) {
        self.field = field
        self.text = text
        self.after = after
        self.before = after == nil ? before : nil
    }
}

public struct UserSearchResult: Sendable, Equatable {
    public var users: [UserSummary]
    /// The cursor for the next page, when there may be one.
    public var next: String?
    /// The cursor for the page before (`UserSearchQuery.before`), when there is one.
    public var previous: String?
    /// Name searches only: how many users this page looked at, and whether it stopped
    /// on its budget before reaching the oldest user.
    public var scanned: Int?
    public var stoppedOnBudget = false
    /// What was searched, and for what (the text trimmed; an id without its `#`): the page
    /// says it, so that nobody reads "no match" for a search they did not mean.
    public var searched: UserSearchField = .email
    public var text = ""
    /// The text was recognised as the start of an email, none starts with it, and names were
    /// searched instead.
    public var namesAfterNoEmail = false
    /// Nothing started with the text as typed, which has capitals beyond A–Z (the email
    /// index's NOCASE folds A–Z only): these are its lower-case form's results.
    public var lowerCaseRetry: String?
}
