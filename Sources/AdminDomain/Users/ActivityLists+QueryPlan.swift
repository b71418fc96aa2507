import Foundation
import GRDB

extension ActivityLists {
    /// How a filter becomes queries.
    struct QueryPlan: Sendable {
        /// Ordered candidate ids and sort keys from one index, without the keyset condition.
        let index: String
        let key: String
        var conditions: [String]
        /// Conditions that need the row.
        let rowFilters: [String]
        var arguments: [String: DatabaseValue]

        init(_ query: ActivityListQuery, now: Date) {
            let filter = query.filter
            let bucket = filter.bucket.condition(now: now)
            let signUp = filter.signUpConditions
            let indexed: [SQLCondition]
            var rowFilters: [SQLCondition]
            if filter.bucket == .never {
                // Never active: one value of the last-active index, whose rows follow id order.
                (index, key) = ("users_last_active_at", "u.id")
                (indexed, rowFilters) = ([bucket], signUp)
            } else if query.sort == .signUp {
                (index, key) = ("users_created_at", "u.created_at")
                (indexed, rowFilters) = (signUp, [bucket])
            } else {
                (index, key) = ("users_last_active_at", "u.last_active_at")
                (indexed, rowFilters) = ([bucket], signUp)
            }
            rowFilters += filter.attributeConditions
            conditions = indexed.map(\.sql)
            self.rowFilters = rowFilters.map(\.sql)
            arguments = (indexed + rowFilters).reduce(into: [:]) { all, condition in
                all.merge(condition.arguments) { $1 }
            }
        }

        /// `upward`: the candidates above the cursor, lowest first (an oldest-first list, or
        /// the page before a newest-first one), on the same index.
        func candidates(after: ActivityCursor?, limit: Int, upward: Bool = false) -> SQL {
            var conditions = self.conditions
            var arguments = self.arguments
            let beyond = upward ? ">" : "<"
            if let after {
                if key == "u.id" {
                    conditions.append("u.id \(beyond) :afterID")
                } else {
                    conditions.append("(\(key), u.id) \(beyond) (:afterKey, :afterID)")
                    arguments["afterKey"] = after.key.databaseValue
                }
                arguments["afterID"] = after.id.databaseValue
            }
            arguments["limit"] = limit.databaseValue
            let sql = """
                SELECT u.id AS id, \(key == "u.id" ? "NULL" : key) AS sort_key FROM users u INDEXED BY \(index)
                WHERE \(conditions.isEmpty ? "1" : conditions.joined(separator: " AND "))
                ORDER BY \(key) \(upward ? "ASC" : "DESC"), u.id \(upward ? "ASC" : "DESC") LIMIT :limit
                """
            return SQL(sql: sql, arguments: StatementArguments(arguments))
        }

        /// The ids of some candidates that pass the row filters.
        func passing(ids: [Int64]) -> SQL {
            let list = ids.map(String.init).joined(separator: ",")
            let sql = """
                SELECT u.id FROM users u
                WHERE u.id IN (\(list))\(rowFilters.map { " AND " + $0 }.joined())
                """
            return SQL(sql: sql, arguments: StatementArguments(arguments))
        }

        /// The rows of some candidates that pass the row filters.
        func rows(ids: [Int64]) -> SQL {
            let arguments = self.arguments
            let list = ids.map(String.init).joined(separator: ",")
            let sql = """
                SELECT \(UserSummary.columns) FROM users u
                WHERE u.id IN (\(list))\(rowFilters.map { " AND " + $0 }.joined())
                """
            return SQL(sql: sql, arguments: StatementArguments(arguments))
        }

        /// The smallest and largest key of the candidate range, each from one end of the
        /// index (MIN and MAX in one query would read the whole range).
        var boundsQuery: SQL {
            let range =
                "FROM users u INDEXED BY \(index) "
                + "WHERE \(conditions.isEmpty ? "1" : conditions.joined(separator: " AND "))"
            return SQL(
                sql: "SELECT (SELECT MIN(\(key)) \(range)) AS low, (SELECT MAX(\(key)) \(range)) AS high",
                arguments: StatementArguments(arguments))
        }

        /// The same range narrowed to keys from `from` up to `to`, inside the range's own
        /// bounds. A time slice replaces the bucket's bounds rather than adding to them:
        /// SQLite seeks an index range on one pair of bounds and would read the rest of the
        /// bucket for each slice. An id slice (the never-active) keeps `IS NULL` before it.
        func slice(from: some DatabaseValueConvertible, to: some DatabaseValueConvertible, last: Bool) -> QueryPlan {
            var narrowed = self
            if key != "u.id" { narrowed.conditions = [] }
            narrowed.conditions.append("\(key) >= :sliceFrom")
            narrowed.conditions.append(last ? "\(key) <= :sliceTo" : "\(key) < :sliceTo")
            narrowed.arguments["sliceFrom"] = from.databaseValue
            narrowed.arguments["sliceTo"] = to.databaseValue
            return narrowed
        }

        /// The candidate range's size, from the index alone.
        var countQuery: SQL {
            SQL(
                sql:
                    "SELECT COUNT(*) FROM users u INDEXED BY \(index) "
                    + "WHERE \(conditions.isEmpty ? "1" : conditions.joined(separator: " AND "))",
                arguments: StatementArguments(arguments))
        }
    }
}
