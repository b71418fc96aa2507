import Foundation
import GRDB

/// The global control group's share: read, changed by an admin (or the command line) with
/// its audit row in the same transaction, and what it means for one user. Members get no
/// campaign or journey push: `Audience.classification` leaves them out at the preview, the
/// freeze and every claim. Reminders (the backend's) and test sends are not affected.
public struct GlobalControl: Sendable {
    public static let maximumPercent = 20

    let database: PanelDatabase

    public init(database: PanelDatabase) {
        self.database = database
    }

    public struct Change: Sendable, Equatable {
        public let percent: Int
        public let tookEffectAt: PanelTime
        /// Who made it; nil when their row names nobody.
        public let by: String?
    }

    public struct Settings: Sendable, Equatable {
        /// Oldest first.
        public let history: [Change]
        /// 0 before any change.
        public var percent: Int { history.last?.percent ?? 0 }
    }

    /// A user's place in the group now: since when they have been a member without a break.
    public struct Membership: Sendable, Equatable {
        public let since: PanelTime
        public let percent: Int
    }

    public func settings() async throws -> Settings {
        try await database.read { db in try Self.settings(in: db) }
    }

    static func settings(in db: Database) throws -> Settings {
        let changes = try PanelGlobalControlChange.order(PanelGlobalControlChange.Columns.id).fetchAll(db)
        return Settings(
            history: changes.map { Change(percent: $0.percent, tookEffectAt: $0.tookEffectAt, by: $0.actorEmail) })
    }

    /// The share as typed on the settings page or the command line: whole percent, 0 to 20.
    public static func percent(typed text: String) -> Result<Int, GlobalControlRefusal> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.hasSuffix("%") ? String(trimmed.dropLast()).trimmingCharacters(in: .whitespaces) : trimmed
        guard !digits.isEmpty, digits.utf8.count <= 3, digits.utf8.allSatisfy({ (48...57).contains($0) }),
            let percent = Int(digits), percent <= maximumPercent
        else {
            return .failure(
                GlobalControlRefusal(
                    "the share must be a whole percent from 0 to \(maximumPercent), such as 5"))
        }
        return .success(percent)
    }

    /// Puts a new share in force now. The same share again is refused: it would change nothing
    /// but the history.
    @discardableResult
    public func set(percent: Int, by actor: AuditActor, now: Date = Date()) async throws -> Change {
        guard (0...Self.maximumPercent).contains(percent) else {
            throw GlobalControlRefusal(
                "the share must be a whole percent from 0 to \(Self.maximumPercent)")
        }
        let outcome = try await database.write { db -> Result<Change, GlobalControlRefusal> in
            let before = try Self.settings(in: db).percent
            guard before != percent else {
                return .failure(GlobalControlRefusal("the share is \(percent)% already"))
            }
            let entry = actor.entry(
                .globalControlChanged, target: "setting:global_control",
                detail: "share \(before)% → \(percent)%")
            let change = PanelGlobalControlChange(
                percent: percent, tookEffectAt: PanelTime(now), adminID: actor.identity?.adminID,
                actorEmail: actor.identity?.email ?? entry.actorEmail)
            try change.insert(db)
            try AuditLog.insert(entry, now: now, in: db)
            return .success(Change(percent: percent, tookEffectAt: change.tookEffectAt, by: change.actorEmail))
        }
        return try outcome.get()
    }

    public func membership(of user: Int64) async throws -> Membership? {
        try await database.read { db in try Self.membership(of: user, in: db) }
    }

    /// Walks the history back from the change in force while each share still takes the user:
    /// the earliest of that unbroken run is when they joined.
    static func membership(of user: Int64, in db: Database) throws -> Membership? {
        guard let key = try GlobalControlDraw.key(in: db) else { return nil }
        let history = try settings(in: db).history
        let draw = GlobalControlDraw.draw(user: user, key: key)
        var since: PanelTime?
        for change in history.reversed() {
            guard draw < change.percent * 100 else { break }
            since = change.tookEffectAt
        }
        guard let since, let current = history.last else { return nil }
        return Membership(since: since, percent: current.percent)
    }
}

/// Why a change of the share was refused, in a sentence.
public struct GlobalControlRefusal: Error, Equatable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
