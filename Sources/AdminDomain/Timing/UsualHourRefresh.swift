import Foundation
import GRDB

/// Keeps `panel_usual_hours` up to date, in the background. The first build walks the users
/// by id, a chunk at a time, reading each chunk's events of the window from
/// `activity_events_user_time` (the index alone: user, time). After it, new events are read
/// by their id after a cursor, never by their stamps: a row written late or stamped by a
/// clock that is wrong is still read once. Rows whose oldest day has left the window are made
/// again. Each write folds into the row as it is in the write transaction, so a second panel
/// process loses nothing, and folding an event twice changes nothing. Then the peers' hours.
public struct UsualHourRefresh: Sendable {
    public struct Figures: Sendable, Equatable {
        /// Users written by the first build in this run.
        public var built = 0
        public var eventsRead = 0
        /// Users whose rows new events changed.
        public var updated = 0
        /// Rows made again (or removed) because their oldest day left the window.
        public var aged = 0
        public var peerGroups = 0
        /// The first build is not finished yet.
        public var building = false
    }

    let database: PanelDatabase
    let defaultZoneName: String
    public var usersPerChunk = 2_000
    public var eventsPerBatch = 20_000
    public var pauseBetweenChunks = Duration.milliseconds(20)
    /// Rows per write transaction: a few milliseconds of the write lock.
    public var usersPerWrite = 250

    public init(database: PanelDatabase, defaultTimeZone: String) {
        self.database = database
        defaultZoneName = defaultTimeZone
    }

    /// - Parameter maxChunks: first-build chunks this run may write (the rest on the next run).
    public func run(now: Date, maxChunks: Int = .max) async throws -> Figures {
        let fold = UsualHourFold(now: Int64(now.timeIntervalSince1970.rounded(.down)), defaultZoneName: defaultZoneName)
        var figures = Figures()
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO panel_usual_hour_state (id, event_cursor, build_after, build_since)
                    VALUES (1, COALESCE((SELECT MAX(id) FROM activity_events), 0), 0, ?)
                    """,
                arguments: [SQLiteTime.string(secondsSinceEpoch: fold.now - Int64(ActivityDays.window + 1) * 86_400)])
        }
        var chunks = 0
        while let (after, since) = try await buildPosition(), chunks < maxChunks {
            figures.built += try await buildChunk(after: after, since: since, fold: fold)
            chunks += 1
            // A breath between chunks: the backend and support's pages get the write lock and
            // the cores without waiting behind a build of a million users.
            try await Task.sleep(for: pauseBetweenChunks)
        }
        if try await buildPosition() != nil {
            figures.building = true
            return figures
        }
        try await readNewEvents(fold: fold, into: &figures)
        figures.aged = try await remakeAged(fold: fold)
        figures.peerGroups = try await UsualHourPeers.rebuild(in: database)
        try await database.write { db in
            try db.execute(
                sql: "UPDATE panel_usual_hour_state SET refreshed_at = ? WHERE id = 1", arguments: [PanelTime(now)])
        }
        return figures
    }

    private func buildPosition() async throws -> (Int64, String)? {
        try await database.read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT build_after, build_since FROM panel_usual_hour_state WHERE id = 1"),
                let after: Int64 = row["build_after"], let since: String = row["build_since"]
            else { return nil }
            return (after, since)
        }
    }

    /// Users in (after, after + chunk] with their events since `since`, written as one step
    /// of the build, unless another process took this step meanwhile.
    private func buildChunk(after: Int64, since: String, fold: UsualHourFold) async throws -> Int {
        let chunk = Int64(usersPerChunk)
        // The fold is done in the read, on the database's low-priority threads: a chunk's is tens
        // of milliseconds of CPU, too long for one of Swift's two cooperative threads.
        let (made, last) = try await database.readAtLowPriority { db -> ([PanelUsualHour], Int64) in
            let last = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM users") ?? 0
            let users = try UsualHourUser.fetch(idsAfter: after, upTo: after + chunk, in: db)
            var times: [Int64: [String]] = [:]
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT user_id, created_at FROM activity_events INDEXED BY activity_events_user_time
                    WHERE user_id > ? AND user_id <= ? AND created_at >= ? AND created_at <= ?
                    """,
                arguments: [
                    after, after + chunk, since,
                    SQLiteTime.string(secondsSinceEpoch: fold.now + UsualHourFold.futureSlack),
                ])
            while let row = try rows.next() {
                guard let user: Int64 = row["user_id"], let time: String = row["created_at"] else { continue }
                times[user, default: []].append(time)
            }
            let made = users.compactMap { user in
                fold.row(
                    user: user.id, days: ActivityDays(), times: times[user.id] ?? [], zoneName: user.timezone,
                    locale: user.locale,
                    platform: user.platform)
            }
            return (made, last)
        }
        // A few short transactions, the position moved with the last: a crash between them
        // leaves rows that the chunk, made again, writes over with the same.
        var written = 0
        var start = 0
        repeat {
            let slice = Array(made[start..<min(start + usersPerWrite, made.count)])
            let isLast = start + usersPerWrite >= made.count
            let done = after + chunk >= last
            let stamp = SQLiteTime.string(secondsSinceEpoch: fold.now)
            let wrote = try await database.write { db -> Bool in
                guard
                    try Int64.fetchOne(db, sql: "SELECT build_after FROM panel_usual_hour_state WHERE id = 1") == after
                else { return false }
                for row in slice { try row.replace(in: db) }
                guard isLast else { return true }
                try db.execute(
                    sql: """
                        UPDATE panel_usual_hour_state
                        SET build_after = ?,
                            build_since = CASE WHEN ? THEN NULL ELSE build_since END,
                            built_at = CASE WHEN ? THEN ? ELSE built_at END
                        WHERE id = 1
                        """, arguments: [done ? nil : after + chunk, done, done, stamp])
                return true
            }
            guard wrote else { return written }
            written += slice.count
            start += usersPerWrite
        } while start < made.count
        return written
    }

    /// Events after the cursor, by id, folded into their users' rows.
    private func readNewEvents(fold: UsualHourFold, into figures: inout Figures) async throws {
        while true {
            let batch = eventsPerBatch
            let (cursor, events) = try await database.readAtLowPriority {
                db -> (Int64, [(id: Int64, user: Int64?, time: String?)]) in
                let cursor =
                    try Int64.fetchOne(db, sql: "SELECT event_cursor FROM panel_usual_hour_state WHERE id = 1") ?? 0
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT id, CASE WHEN typeof(user_id) = 'integer' THEN user_id END AS user_id,
                               CASE WHEN typeof(created_at) = 'text' THEN created_at END AS created_at
                        FROM activity_events WHERE id > ? ORDER BY id LIMIT ?
                        """, arguments: [cursor, batch])
                return (cursor, rows.map { (id: $0["id"], user: $0["user_id"], time: $0["created_at"]) })
            }
            guard let lastID = events.last?.id else { return }
            figures.eventsRead += events.count
            var times: [Int64: [String]] = [:]
            for event in events {
                guard let user = event.user, let time = event.time else { continue }
                times[user, default: []].append(time)
            }
            let ids = times.keys.sorted()
            let folded = times
            let users = try await database.readAtLowPriority { db in try UsualHourUser.fetch(ids: ids, in: db) }
            var start = 0
            repeat {
                let slice = Array(ids[start..<min(start + usersPerWrite, ids.count)])
                let isLast = start + usersPerWrite >= ids.count
                let moved = try await database.write { db -> Int? in
                    // Another process read this batch already: its rows hold these events.
                    guard
                        try Int64.fetchOne(db, sql: "SELECT event_cursor FROM panel_usual_hour_state WHERE id = 1")
                            == cursor
                    else { return nil }
                    let count = try Self.fold(slice, times: folded, users: users, fold: fold, in: db)
                    if isLast {
                        try db.execute(
                            sql: "UPDATE panel_usual_hour_state SET event_cursor = ? WHERE id = 1", arguments: [lastID])
                    }
                    return count
                }
                guard let moved else { break }
                figures.updated += moved
                start += usersPerWrite
            } while start < ids.count
            if events.count < batch { return }
        }
    }

    /// Rows whose oldest day has left the window, made again from what they keep.
    private func remakeAged(fold: UsualHourFold) async throws -> Int {
        var total = 0
        while true {
            let ids = try await database.read { db in
                try Int64.fetchAll(
                    db, sql: "SELECT user_id FROM panel_usual_hours WHERE recheck_at <= ? ORDER BY recheck_at LIMIT ?",
                    arguments: [fold.now, usersPerWrite])
            }
            guard !ids.isEmpty else { return total }
            let users = try await database.readAtLowPriority { db in try UsualHourUser.fetch(ids: ids, in: db) }
            total += try await database.write { db in try Self.fold(ids, times: [:], users: users, fold: fold, in: db) }
            if ids.count < usersPerWrite { return total }
        }
    }

    /// Folds `times` into each user's row as it is now, in the caller's write transaction.
    /// A user with no day left in the window (or gone from the app) has no row.
    static func fold(
        _ ids: [Int64], times: [Int64: [String]], users: [Int64: UsualHourUser], fold: UsualHourFold,
        in db: Database
    ) throws -> Int {
        var count = 0
        for id in ids {
            let stored = try PanelUsualHour.fetchOne(db, key: id)
            guard let user = users[id] else {
                // Gone from the app (or events of an id that never was one): no row.
                if stored != nil, try PanelUsualHour.deleteOne(db, key: id) { count += 1 }
                continue
            }
            let made = fold.row(
                user: id, days: stored.map { ActivityDays(blob: $0.days) } ?? ActivityDays(), times: times[id] ?? [],
                zoneName: user.timezone, locale: user.locale, platform: user.platform)
            if let made {
                if made != stored {
                    try made.replace(in: db)
                    count += 1
                }
            } else if stored != nil {
                try PanelUsualHour.deleteOne(db, key: id)
                count += 1
            }
        }
        return count
    }
}
