import GRDB

/// Who is in the global control group: a keyed draw on the user id, 0..<10,000, and a user
/// is a member while the share in force (in whole percent) times 100 is above their draw.
/// Raising the share keeps every member and adds users; lowering it releases the newest
/// members first; a user who signs up later is drawn like everyone else. The key is
/// `panel_global_control_key`'s four numbers, made once by the migration; nothing else
/// about a user is kept.
///
/// The draw is arithmetic modulo the prime 2^31 − 1 (every product stays below 2^62, so
/// SQLite's integers never overflow into reals): x0 = id mod p, x1 = (a·x0 + b) mod p,
/// x2 = (x1² + c) mod p, x3 = (d·x2 + b) mod p, draw = x3 mod 10,000. The square makes it
/// more than a line, so neighbouring ids are not drawn in a row. Written in SQL (`memberSQL`)
/// for the preview, the freeze and the claim, which evaluate it per row at the cost of a
/// few arithmetic steps, and in Swift (`draw`) for a profile and the reports; a test holds
/// the two equal.
public enum GlobalControlDraw {
    public struct Key: Sendable, Equatable {
        public let a, b, c, d: Int64

        public init(a: Int64, b: Int64, c: Int64, d: Int64) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }
    }

    static let prime: Int64 = 2_147_483_647
    /// Draws are 0..<`scale`: a share of 1% is 100 of them.
    static let scale: Int64 = 10_000

    public static func draw(user: Int64, key: Key) -> Int {
        let p = prime
        let x0 = (user % p + p) % p
        let x1 = (x0 * key.a + key.b) % p
        let x2 = (x1 * x1 + key.c) % p
        let x3 = (x2 * key.d + key.b) % p
        return Int(x3 % scale)
    }

    public static func isMember(user: Int64, key: Key, percent: Int) -> Bool {
        draw(user: user, key: key) < percent * 100
    }

    /// The share in force: the latest change's, NULL before any (nobody is a member).
    static let percentSQL = "(SELECT percent FROM panel_global_control ORDER BY id DESC LIMIT 1)"

    /// True when `user` (an SQL expression of the user's id) is in the group now. The key's
    /// and the share's subqueries name no column of the row, so SQLite runs each once per
    /// statement; the share is read by the statement that applies it, never remembered.
    /// The share is tried first, so that with none in force (0%, or never set) no row pays
    /// for the draw: SQLite stops an AND at its first false term.
    static func memberSQL(user: String) -> String {
        "(\(percentSQL) > 0 AND \(drawSQL(user: user)) < \(percentSQL) * 100)"
    }

    /// The draw of `user` (an SQL expression of the user's id), 0..<10,000.
    static func drawSQL(user: String) -> String {
        let p = String(prime)
        func key(_ name: String) -> String { "(SELECT \(name) FROM panel_global_control_key)" }
        let x0 = "((\(user) % \(p) + \(p)) % \(p))"
        let x1 = "((\(x0) * \(key("a")) + \(key("b"))) % \(p))"
        let x2 = "((\(x1) * \(x1) + \(key("c"))) % \(p))"
        let x3 = "((\(x2) * \(key("d")) + \(key("b"))) % \(p))"
        return "(\(x3) % \(scale))"
    }

    static func key(in db: Database) throws -> Key? {
        guard let row = try Row.fetchOne(db, sql: "SELECT a, b, c, d FROM panel_global_control_key") else {
            return nil
        }
        return Key(a: row["a"], b: row["b"], c: row["c"], d: row["d"])
    }
}
