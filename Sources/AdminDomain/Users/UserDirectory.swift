import Foundation
import GRDB

/// Finding users. Email searches are ranges of the `users.email` index (NOCASE), exact or by
/// prefix, with the typed text taken literally: no LIKE, so `%`, `_` and `\` are characters.
/// Names have no index: they are scanned newest first, a bounded slice per page.
public struct UserDirectory: Sendable {
    let database: PanelDatabase
    public static let pageSize = 25
    /// Suggestions start at this many characters: fewer match too many to help.
    public static let suggestionMinimum = 2
    /// A name search looks at no more than this many users per page…
    public static let nameScanRows: Int64 = 100_000
    /// …in slices this big, each its own short read…
    static let nameScanSlice: Int64 = 20_000
    /// …and stops early after this long (a test that counts whole scans on a loaded
    /// machine gives itself more).
    let nameScanTime: TimeInterval

    public init(database: PanelDatabase, nameScanTime: TimeInterval = 0.1) {
        self.database = database
        self.nameScanTime = nameScanTime
    }

    public func search(_ query: UserSearchQuery) async throws -> UserSearchResult {
        let typed = TypedText.trimmed(query.text)
        // What a ticket holds (`Name <address>`, `mailto:…`, quotes) is searched as its address.
        let pasted = query.field == nil || query.field == .email ? PastedAddress.address(in: typed) : nil
        let text = pasted ?? typed
        let field = query.field ?? UserSearchField.recognised(in: text)
        var result: UserSearchResult
        if text.isEmpty || text.utf8.count > 320 {
            result = UserSearchResult(users: [])
        } else {
            switch field {
            case .email:
                result =
                    if let before = query.before {
                        try await emailPrefix(text, before: before)
                    } else {
                        try await emailPrefix(text, after: query.after, limit: Self.pageSize, withItemCount: true)
                    }
            case .id: result = try await byID(text)
            case .name:
                result =
                    if let before = query.before.flatMap({ Int64($0) }) {
                        try await byName(Self.singleSpaced(text), startAbove: before)
                    } else {
                        try await byName(Self.singleSpaced(text), startBelow: query.after.flatMap { Int64($0) })
                    }
            }
        }
        // "MÜLLER@bücher.de": SQLite's NOCASE folds A–Z only, so a stored "müller@…" is
        // looked up again in lower case, and the page says so.
        if field == .email, query.after == nil, query.before == nil, result.users.isEmpty,
            Self.hasCapitalsBeyondASCII(text)
        {
            result = try await emailPrefix(text.lowercased(), after: nil, limit: Self.pageSize, withItemCount: true)
            result.lowerCaseRetry = text.lowercased()
        }
        result.searched = field
        result.text = field == .id && text.hasPrefix("#") ? String(text.dropFirst()) : text
        // A single word may be a name as well as the start of an email: the email index is
        // asked first (microseconds), the bounded name scan only when it has nothing.
        if query.field == nil, field == .email, query.after == nil, query.before == nil, result.users.isEmpty,
            !text.isEmpty,
            !text.contains("@")
        {
            var names = try await byName(Self.singleSpaced(text), startBelow: nil)
            names.searched = .name
            names.text = text
            names.namesAfterNoEmail = true
            return names
        }
        return result
    }

    /// One user's summary by id, without the item count.
    public func summary(id: Int64) async throws -> UserSummary? {
        try await database.read { db in
            try UserSummary.fetchOne(
                db, sql: "SELECT \(UserSummary.columns) FROM users u WHERE u.id = ?", arguments: [id])
        }
    }

    /// Emails starting with `prefix`, for the search box's suggestions: no item counts.
    public func suggestions(prefix: String, limit: Int = 8) async throws -> [UserSummary] {
        let text = TypedText.trimmed(prefix)
        guard text.utf8.count >= Self.suggestionMinimum, text.utf8.count <= 320 else { return [] }
        return try await emailPrefix(text, after: nil, limit: limit, withItemCount: false).users
    }

    /// The SQL of the email search, with or without item counts; the query-plan test reads it too.
    static func emailPrefixSQL(withItemCount: Bool) -> String {
        """
        SELECT \(withItemCount ? UserSummary.columnsWithItemCount : UserSummary.columns) FROM users u
        WHERE u.email >= :prefix AND u.email < :upper AND u.email > :after
        ORDER BY u.email LIMIT :limit
        """
    }

    private func emailPrefix(_ prefix: String, after: String?, limit: Int, withItemCount: Bool) async throws
        -> UserSearchResult
    {
        // The column's NOCASE collation applies to both bounds: any case matches, and every
        // email that starts with the prefix sorts before prefix + the highest code point.
        let arguments: StatementArguments = [
            "prefix": prefix, "upper": prefix + "\u{10FFFF}", "after": after ?? "", "limit": limit + 1,
        ]
        let sql = Self.emailPrefixSQL(withItemCount: withItemCount)
        let users = try await database.read { db in try UserSummary.fetchAll(db, sql: sql, arguments: arguments) }
        var result = UserSearchResult(
            users: Array(users.prefix(limit)), next: users.count > limit ? users[limit - 1].email : nil)
        // A page after another has one before it, which ends just before its first row.
        if after != nil { result.previous = result.users.first?.email ?? after }
        return result
    }

    /// The page of emails starting with `prefix` that ends just before `before`: read
    /// backwards on the same index range, shown in order.
    private func emailPrefix(_ prefix: String, before: String) async throws -> UserSearchResult {
        let arguments: StatementArguments = [
            "prefix": prefix, "upper": prefix + "\u{10FFFF}", "before": before, "limit": Self.pageSize + 1,
        ]
        let sql = """
            SELECT \(UserSummary.columnsWithItemCount) FROM users u
            WHERE u.email >= :prefix AND u.email < :upper AND u.email < :before
            ORDER BY u.email DESC LIMIT :limit
            """
        let users = try await database.read { db in try UserSummary.fetchAll(db, sql: sql, arguments: arguments) }
        let page = Array(users.prefix(Self.pageSize).reversed())
        var result = UserSearchResult(users: page, next: page.last?.email)
        if users.count > Self.pageSize { result.previous = page.first?.email }
        return result
    }

    private func byID(_ text: String) async throws -> UserSearchResult {
        guard let id = Int64(text.hasPrefix("#") ? String(text.dropFirst()) : text) else {
            return UserSearchResult(users: [])
        }
        let users = try await database.read { db in
            try UserSummary.fetchAll(
                db, sql: "SELECT \(UserSummary.columnsWithItemCount) FROM users u WHERE u.id = ?", arguments: [id])
        }
        return UserSearchResult(users: users)
    }

    static func hasCapitalsBeyondASCII(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value >= 0x80 && $0.properties.changesWhenLowercased }
    }

    /// A pasted name with runs of spaces ("Dmitri  Tanaka") is searched as typed once.
    static func singleSpaced(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Display names contain `text` (in any case, any script), newest users first, looking
    /// at a bounded slice of users per page; the cursor is the id the scan reached.
    private func byName(_ text: String, startBelow: Int64?) async throws -> UserSearchResult {
        let started = Date()
        let foldedText = TypedText.folded(text)
        let folded = Data(foldedText.utf8)
        var upper: Int64
        if let startBelow {
            upper = startBelow
        } else {
            upper = try await database.read { db in (try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM users") ?? 0) + 1
            }
        }
        var found: [UserSummary] = []
        var scanned: Int64 = 0
        // At least one slice, however slow the machine; then as many as the budgets allow.
        repeat {
            let (lower, below, have) = (max(1, upper - Self.nameScanSlice), upper, found.count)
            let (slice, rows, nextBelow) = try await database.read { db -> ([UserSummary], Int64, Int64?) in
                let slice = try UserSummary.fetchAll(
                    db, sql: Self.nameSliceSQL,
                    arguments: [
                        "lower": lower, "below": below, "text": foldedText, "bytes": folded,
                        "limit": Self.pageSize - have,
                    ])
                // A full page may end inside the slice: the next page starts below its last row.
                let reached = have + slice.count == Self.pageSize ? (slice.last?.id ?? lower) : lower
                // Rows, not ids, count against the budget, and ids nobody has are skipped: a
                // gap in the ids (a bulk import, a test's users at 990,001) made rare names
                // stop "partial" page after page (issue 36).
                let rows =
                    try Int64.fetchOne(
                        db, sql: "SELECT COUNT(*) FROM users WHERE id >= ? AND id < ?", arguments: [reached, below])
                    ?? 0
                let nextBelow = try Int64.fetchOne(
                    db, sql: "SELECT MAX(id) FROM users WHERE id < ?", arguments: [reached])
                return (slice, rows, nextBelow)
            }
            found += slice
            scanned += rows
            upper = found.count == Self.pageSize ? (found.last?.id ?? 1) : (nextBelow.map { $0 + 1 } ?? 1)
        } while upper > 1 && scanned < Self.nameScanRows && found.count < Self.pageSize
            && Date().timeIntervalSince(started) < nameScanTime
        let counted = try await itemCounts(found)
        var result = UserSearchResult(
            users: counted, next: upper > 1 ? String(upper) : nil, scanned: Int(scanned),
            stoppedOnBudget: upper > 1 && found.count < Self.pageSize)
        // Back: the matches above the first shown, or above where this page began.
        if let startBelow { result.previous = String(found.first.map(\.id) ?? startBelow - 1) }
        return result
    }

    /// Paging back through a name scan: the matches just above `startAbove`, nearest first,
    /// looking at a bounded slice of users as `byName` does, shown newest first.
    private func byName(_ text: String, startAbove: Int64) async throws -> UserSearchResult {
        let started = Date()
        let foldedText = TypedText.folded(text)
        let folded = Data(foldedText.utf8)
        let top = try await database.read { db in try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM users") ?? 0 }
        var lower = startAbove
        var found: [UserSummary] = []
        var scanned: Int64 = 0
        // One match more than a page: found, there is a page above this one; the first page,
        // reached by going back, then has no Previous leading to nothing (issue 36, tryout).
        let target = Self.pageSize + 1
        repeat {
            let (from, upTo, have) = (lower + 1, min(top + 1, lower + 1 + Self.nameScanSlice), found.count)
            let (slice, rows, nextAbove) = try await database.read { db -> ([UserSummary], Int64, Int64?) in
                let slice = try UserSummary.fetchAll(
                    db, sql: Self.nameSliceUpSQL,
                    arguments: [
                        "lower": from, "below": upTo, "text": foldedText, "bytes": folded, "limit": target - have,
                    ])
                let reached = have + slice.count == target ? (slice.last?.id ?? upTo - 1) : upTo - 1
                let rows =
                    try Int64.fetchOne(
                        db, sql: "SELECT COUNT(*) FROM users WHERE id >= ? AND id <= ?", arguments: [from, reached])
                    ?? 0
                let nextAbove = try Int64.fetchOne(
                    db, sql: "SELECT MIN(id) FROM users WHERE id > ?", arguments: [reached])
                return (slice, rows, nextAbove)
            }
            found += slice
            scanned += rows
            lower = found.count == target ? (found.last?.id ?? top) : (nextAbove.map { $0 - 1 } ?? top)
        } while lower < top && scanned < Self.nameScanRows && found.count < target
            && Date().timeIntervalSince(started) < nameScanTime
        let more = found.count == target
        let page = Array(found.prefix(Self.pageSize))
        let counted = try await itemCounts(Array(page.reversed()))
        var result = UserSearchResult(
            users: counted, next: String(counted.last.map(\.id) ?? startAbove + 1), scanned: Int(scanned),
            stoppedOnBudget: !more && lower < top)
        // Above the highest shown when one more was found; where the scan stopped when its
        // budget ran out first; none when it reached the newest user.
        if more {
            result.previous = page.last.map { String($0.id) }
        } else if lower < top {
            result.previous = String(lower)
        }
        return result
    }

    /// One slice of a name scan: a range of the primary key. A name of printable ASCII with
    /// single spaces folds as SQLite's lower() has it, so SQLite compares it itself (about half
    /// the names, at a quarter of the cost); any other name goes through `panel_folded`.
    /// (`length` counts characters up to a NUL, the blob's its bytes: equal only for ASCII.)
    static let nameSliceSQL = """
        SELECT \(UserSummary.columns) FROM users u
        WHERE u.id >= :lower AND u.id < :below AND CASE
            WHEN length(u.display_name) = length(CAST(u.display_name AS BLOB)) AND u.display_name NOT GLOB '*[^ -~]*'
                AND instr(u.display_name, '  ') = 0
            THEN instr(lower(u.display_name), :text) > 0
            ELSE instr(panel_folded(CAST(u.display_name AS BLOB)), :bytes) > 0 END
        ORDER BY u.id DESC LIMIT :limit
        """

    /// `nameSliceSQL` read upwards, for paging back.
    static let nameSliceUpSQL = nameSliceSQL.replacingOccurrences(of: "ORDER BY u.id DESC", with: "ORDER BY u.id ASC")

    /// Fills the item counts of a page of users.
    private func itemCounts(_ users: [UserSummary]) async throws -> [UserSummary] {
        guard !users.isEmpty else { return users }
        let ids = users.map { String($0.id) }.joined(separator: ",")
        let counted = try await database.read { db in
            try UserSummary.fetchAll(
                db, sql: "SELECT \(UserSummary.columnsWithItemCount) FROM users u WHERE u.id IN (\(ids))")
        }
        let byID = Dictionary(uniqueKeysWithValues: counted.map { ($0.id, $0) })
        return users.map { byID[$0.id] ?? $0 }
    }
}
