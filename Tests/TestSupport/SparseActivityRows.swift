import GRDB

/// 12,000 free users active more recently than 60 premium ones: a list filtered to premium
/// users finds none of them among its first 12,000 candidates.
public enum SparseActivityRows {
    public static func insert(into db: Database, freeActiveAt: String, premiumActiveAt: String) throws {
        try db.execute(
            sql: """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 12000)
                INSERT INTO users (id, email, password_hash, plan, created_at, last_active_at)
                SELECT 2000000 + i, 'busy' || i || '@bulk.test', 'x', 'free', '2025-01-01 00:00:00', ? FROM n;
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60)
                INSERT INTO users (id, email, password_hash, plan, created_at, last_active_at)
                SELECT 3000000 + i, 'paying' || i || '@bulk.test', 'x', 'premium', '2025-01-01 00:00:00', ? FROM n;
                """, arguments: [freeActiveAt, premiumActiveAt])
    }
}
