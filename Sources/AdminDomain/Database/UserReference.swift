import GRDB

/// Which user a shared piece of SQL is about, as the query around it names them: a fixed
/// set, so no column text travels between functions.
enum UserReference: String, Sendable {
    /// `users u` of a segment or a user's page.
    case segmentUser = "u.id"
    /// A statement's parameter, bound per user.
    case parameter = "?"

    var sql: SQL { SQL(sql: rawValue) }
}
