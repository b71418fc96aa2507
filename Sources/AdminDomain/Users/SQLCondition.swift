import GRDB

/// One condition of a WHERE clause with its named arguments: fixed SQL text from the domain
/// (a `StaticString`: no text built at run time gets in), values always bound, never spliced.
/// The activity lists' and dashboard's query types read the text; others use `all`.
struct SQLCondition: Sendable {
    let sql: String
    let arguments: [String: DatabaseValue]

    init(_ sql: StaticString, _ arguments: [String: any DatabaseValueConvertible] = [:]) {
        self.sql = sql.description
        self.arguments = arguments.mapValues(\.databaseValue)
    }

    /// Users with a device on `platform`, on `users u`. Its own alias, `p`: the audience's
    /// query joins `devices d` around it.
    static func hasDevice(on platform: Platform) -> SQLCondition {
        SQLCondition(
            """
            EXISTS (SELECT 1 FROM devices p INDEXED BY devices_user WHERE p.user_id = u.id AND p.platform = :platform)
            """,
            ["platform": platform])
    }

    /// The conditions ANDed (`1` for none) as one literal. A name two of them share is bound
    /// once: they hold the same value (one segment, one `now`), and GRDB refuses a name twice.
    static func all(_ conditions: [SQLCondition], also more: [String: DatabaseValue] = [:]) -> SQL {
        var arguments = more
        for condition in conditions { arguments.merge(condition.arguments) { first, _ in first } }
        return SQL(
            sql: (["1"] + conditions.map { "(\($0.sql))" }).joined(separator: " AND "),
            arguments: StatementArguments(arguments))
    }
}
