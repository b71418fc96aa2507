import Foundation
import GRDB

extension UserItems {
    /// Whose items a page lists: their row and their items' counts by status, without the
    /// rest of the profile, so that paging a heavy user's items reads only what the list needs.
    public struct Owner: Sendable {
        public let account: UserProfile.Account
        public let calendar: UserCalendar
        public let food: UserProfile.StatusCounts
        public let documents: UserProfile.StatusCounts
    }

    /// nil when there is no such user. A heavy user's counts come from the cache, as the profile's do.
    public func owner(id: Int64, now: Date = Date()) async throws -> Owner? {
        let kept = await cache?.counts(userID: id, now: now)
        let owner = try await database.read { db -> Owner? in
            guard let account = try UserProfile.Account.fetchOne(db, id: id) else { return nil }
            let calendar = UserCalendar(timezone: account.timezone, now: now)
            let (food, documents) = try UserProfile.counts(db, userID: id, calendar: calendar, kept: kept)
            return Owner(account: account, calendar: calendar, food: food, documents: documents)
        }
        if let owner, kept?.today != owner.calendar.today {
            await cache?.keep(
                .init(today: owner.calendar.today, food: owner.food, documents: owner.documents), userID: id, now: now)
        }
        return owner
    }
}
