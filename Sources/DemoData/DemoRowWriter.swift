import AdminDomain
import Foundation

/// Generates one user and everything that belongs to them, and writes the rows.
struct DemoRowWriter {
    private let seed: UInt64
    private let shape: DemoShape
    private var batch = RowBatch()
    private var nextDeviceID: Int64
    private var nextFoodID: Int64
    private var nextDocumentID: Int64
    private let localHours = LocalHourClock()
    /// The days of activity that place a user's usual hour (issue 35): the domain's window.
    static let habitWindow: Int64 = 60

    /// The next ids are passed in because reminders and receipts refer to rows by id.
    init(seed: UInt64, shape: DemoShape = .seeder, nextDeviceID: Int64, nextFoodID: Int64, nextDocumentID: Int64) {
        self.seed = seed
        self.shape = shape
        self.nextDeviceID = nextDeviceID
        self.nextFoodID = nextFoodID
        self.nextDocumentID = nextDocumentID
    }

    /// Hands over the rows generated since the last call.
    mutating func takeBatch() -> RowBatch {
        defer { batch = RowBatch() }
        return batch
    }

    private mutating func emit(_ table: SeedTable, _ values: SeedValue...) {
        batch.append(table, values)
    }

    enum Activity { case active, idle, inactive, never }

    mutating func writeUser(id: Int64, totalUsers: Int64, clock: SeedClock, rng: inout SeedRandom) {
        typealias V = DemoVocabulary
        let isWhale = id == DemoSeeder.whaleUserID
        // Sign-ups over three years, more of them recently (a growing app); ids in sign-up order.
        let span: Int64 = 3 * 365 * 86_400
        let position = (Double(id) / Double(totalUsers + 1)).squareRoot()
        let createdAt = clock.nowSeconds - span + Int64(Double(span) * position) - Int64(rng.int(0...3_600))
        let daysSinceSignUp = Double(clock.nowSeconds - createdAt) / 86_400

        let roll = rng.int(0...99)
        let activity: Activity =
            isWhale
            ? .active
            : roll < 10 ? .never : roll < 45 ? .active : roll < 60 ? .idle : .inactive
        var lastActive: Int64? =
            switch activity {
            case .never: nil
            case .active: clock.daysAgo(Double(rng.int(0...6_999)) / 1_000)
            case .idle: clock.daysAgo(8 + Double(rng.int(0...21_900)) / 1_000)
            case .inactive: clock.daysAgo(30 + Double(rng.int(0...max(0, Int(daysSinceSignUp - 30) * 1_000))) / 1_000)
            }
        if let seen = lastActive, seen < createdAt { lastActive = min(clock.nowSeconds, createdAt + 600) }
        let activeUntil = lastActive ?? createdAt

        let first = rng.pick(V.firstNames)
        let last = rng.pick(V.lastNames)
        let displayName: String? =
            switch rng.int(0...199) {
            case 0..<16: nil
            case 16..<20: rng.pick(V.hostileNames)
            case 20..<30: rng.pick(V.scriptNames)
            default: "\(first) \(last)"
            }
        let domain = rng.pick(V.domains)
        let email: String =
            if id == 1 {
                "maria.silva@example.com"
            } else if rng.chance(0.005) {
                "\(rng.pick(V.hostileLocalParts))\(id)@\(domain)"
            } else {
                "\(first).\(last)\(id)@\(domain)"
                    .replacingOccurrences(of: " ", with: "")
                    .lowercased()
            }
        let premium = isWhale || rng.chance(0.08)
        let status = isWhale ? "active" : rng.chance(0.02) ? "deleted" : rng.chance(0.015) ? "suspended" : "active"
        let timezone = rng.chance(0.004) ? rng.pick(V.invalidTimezones) : rng.pick(V.validTimezones)

        // Households: blocks of four consecutive users, some of which share one.
        let group = (id - 1) / 4
        var groupRandom = SeedRandom(seed: seed, stream: UInt64(bitPattern: group) | 1 << 40)
        var householdID: Int64?
        if groupRandom.chance(0.15) {
            if (id - 1) % 4 == 0 {
                emit(
                    .households, .int(group + 1),
                    .text(groupRandom.chance(0.05) ? "<b>Casa</b> & \"Co\"" : "The \(last) household"),
                    .text(clock.timestamp(createdAt)))
            }
            if (id - 1) % 4 == 0 || rng.chance(0.75) { householdID = group + 1 }
        }

        emit(
            .users,
            .int(id), .text(email), .text("$argon2id$v=19$m=65536,t=3,p=4$demo$\(id)"), .optionalText(displayName),
            .text(premium ? "premium" : "free"), .text(status), .text(timezone), .text(rng.pick(V.locales)),
            householdID.map { .int($0) } ?? .null, .text(clock.timestamp(createdAt)),
            lastActive.map { .text(clock.timestamp($0)) } ?? .null,
            rng.chance(0.8) ? .text(clock.timestamp(createdAt + Int64(rng.int(60...86_400)))) : .null)

        writeSubscriptions(userID: id, premium: premium, createdAt: createdAt, clock: clock, rng: &rng)
        if rng.chance(0.97) { writeSettings(userID: id, rng: &rng) }
        let platforms = writeDevices(
            userID: id, activity: activity, createdAt: createdAt, activeUntil: activeUntil,
            clock: clock, rng: &rng)

        let foodCount: Int =
            if isWhale { DemoSeeder.whaleItemCount } else if activity == .never {
                rng.chance(0.2) ? rng.int(1...2) : 0
            } else if premium { min(rng.exponential(mean: 30), 400) }
            // Downgraded from premium, over the free limit.
            else if rng.chance(0.01) { rng.int(51...70) } else { min(rng.exponential(mean: 9), 50) }
        let documentCount: Int =
            isWhale
            ? 40
            : activity == .never
                ? (rng.chance(0.2) ? 1 : 0)
                : rng.chance(0.3) ? 0 : min(1 + rng.exponential(mean: 1.2), 20)
        writeFood(userID: id, count: foodCount, createdAt: createdAt, activeUntil: activeUntil, clock: clock, rng: &rng)
        writeDocuments(
            userID: id, count: documentCount, firstName: first, createdAt: createdAt,
            activeUntil: activeUntil, clock: clock, rng: &rng)
        writeEvents(
            userID: id, activity: activity, createdAt: createdAt, lastActive: lastActive,
            platform: platforms.first, timezone: timezone, clock: clock, rng: &rng)
    }

    private mutating func writeSubscriptions(
        userID: Int64, premium: Bool, createdAt: Int64, clock: SeedClock, rng: inout SeedRandom
    ) {
        // A few free users with a live subscription: the "I paid but I'm still free" ticket.
        let paidButFree = !premium && rng.chance(0.003)
        let history = premium ? rng.int(0...2) : (rng.chance(0.04) ? 1 : 0)
        let current = premium || paidButFree
        guard history + (current ? 1 : 0) > 0 else { return }
        let currency = rng.pick(DemoVocabulary.currencies)
        let store = rng.pick(["app_store", "play_store", "web"])
        // Laid out backwards from now, so that each starts somewhere in the user's life so far:
        // chained forwards, a past one that had not yet ended pushed the next to start at the
        // seed's moment, and "upgrades per week" showed a burst of 159 against about 10.
        var rows: [(start: Int64, end: Int64, yearly: Bool, status: String)] = []
        let earliest = max(createdAt, clock.nowSeconds - 2 * 365 * 86_400)
        var before = clock.nowSeconds
        if current {
            let yearly = rng.chance(0.4)
            let period: Int64 = (yearly ? 365 : 30) * 86_400
            let start = earliest + rng.int64(0...max(0, clock.nowSeconds - 3_600 - earliest))
            var end = start + period
            while end < clock.nowSeconds { end += period }
            let status =
                paidButFree ? "active" : rng.chance(0.05) ? "past_due" : rng.chance(0.05) ? "cancelled" : "active"
            rows.append((start, end, yearly, status))
            before = start
        }
        for _ in 0..<history {
            let yearly = rng.chance(0.4)
            let period: Int64 = (yearly ? 365 : 30) * 86_400
            let end = before - rng.int64(0...60 * 86_400)
            let start = end - period
            guard start >= earliest else { break }
            rows.append((start, end, yearly, rng.chance(0.1) ? "refunded" : rng.chance(0.3) ? "cancelled" : "expired"))
            before = start
        }
        for row in rows.reversed() {
            emit(
                .subscriptions,
                .int(userID), .text(row.yearly ? "yearly" : "monthly"), .text(row.status), .text(store),
                .int(row.yearly ? currency.yearly : currency.monthly), .text(currency.code),
                .text(clock.timestamp(row.start)),
                .text(clock.timestamp(row.end)),
                row.status == "cancelled" ? .text(clock.timestamp(row.end - 86_400 * 3)) : .null)
        }
    }

    private mutating func writeSettings(userID: Int64, rng: inout SeedRandom) {
        let quiet: (String, String)? =
            rng.chance(0.4)
            ? rng.pick([
                ("22:00", "07:00"), ("23:30", "06:30"), ("13:00", "14:00"), ("00:00", "08:00"),
                ("21:00", "21:00"), ("25:00", "99:99"),
            ])
            : nil
        emit(
            .settings,
            .int(userID), .int(rng.chance(0.9) ? 1 : 0), .int(rng.chance(0.85) ? 1 : 0), .int(rng.chance(0.9) ? 1 : 0),
            .int(rng.chance(shape.optedIn ?? 0.6) ? 1 : 0),
            .text(rng.pick(["30,15,7,1", "30,15,7,1", "7,1", "1", "30,7,1,0", ""])),
            .text(rng.pick(["09:00", "09:00", "08:30", "18:00", "21:15", "7:5"])),
            .optionalText(quiet?.0), .optionalText(quiet?.1))
    }

    private mutating func writeDevices(
        userID: Int64, activity: Activity, createdAt: Int64, activeUntil: Int64,
        clock: SeedClock, rng: inout SeedRandom
    ) -> [String] {
        let roll = rng.int(0...99)
        let count =
            activity == .never
            ? (roll < 50 ? 0 : 1)
            : shape.devicesPerUser.map { shape.activeUserDeviceCount($0, rng: &rng) }
                ?? (roll < 5 ? 0 : roll < 75 ? 1 : roll < 95 ? 2 : 3)
        var platforms: [String] = []
        for _ in 0..<count {
            let deviceID = nextDeviceID
            nextDeviceID += 1
            let ios = rng.chance(0.55)
            let provider = ios && rng.chance(0.75) ? "apns" : "fcm"
            let permission =
                shape.granted.map { rng.chance($0) ? "granted" : rng.pick(["denied", "unknown"]) }
                ?? rng.pick(["granted", "granted", "granted", "granted", "denied", "unknown"])
            var token: String?
            if permission == "granted" {
                let a = rng.next()
                let b = rng.next()
                let c = rng.next()
                token =
                    provider == "apns"
                    ? String(format: "%016llx%016llx%016llx%016llx", a, b, c, UInt64(deviceID))
                    : "f\(String(a, radix: 36)):APA91b\(String(b, radix: 36))\(String(c, radix: 36))_\(deviceID)"
            }
            let seenAt = max(createdAt, activeUntil - Int64(rng.int(0...3 * 86_400)))
            emit(
                .devices,
                .int(deviceID), .int(userID), .text(ios ? "ios" : "android"), .text(provider), .optionalText(token),
                .text(permission),
                rng.chance(0.002) ? .text("<img src=x>") : .text(rng.pick(DemoVocabulary.appVersions)),
                .text(rng.pick(ios ? DemoVocabulary.iosVersions : DemoVocabulary.androidVersions)),
                .text(clock.timestamp(createdAt + Int64(rng.int(0...3_600)))), .text(clock.timestamp(seenAt)))
            platforms.append(ios ? "ios" : "android")
            if token != nil, rng.chance(0.4) {
                for _ in 0..<rng.int(1...3) {
                    let deliveryID = "seed-campaign-\(rng.int(1...12))-\(deviceID)"
                    let at = max(createdAt, clock.nowSeconds - Int64(rng.int(0...60 * 86_400)))
                    emit(.receipts, .text(deliveryID), .int(deviceID), .text("received"), .text(clock.timestamp(at)))
                    if rng.chance(0.3) {
                        emit(
                            .receipts, .text(deliveryID), .int(deviceID), .text("opened"),
                            .text(clock.timestamp(at + Int64(rng.int(5...7_200)))))
                    }
                }
            }
        }
        return platforms
    }

    private mutating func writeFood(
        userID: Int64, count: Int, createdAt: Int64, activeUntil: Int64, clock: SeedClock,
        rng: inout SeedRandom
    ) {
        guard count > 0 else { return }
        let activeDay = Int(activeUntil / 86_400 - clock.today)
        for _ in 0..<count {
            let item = rng.pick(DemoVocabulary.foods)
            let added = createdAt + Int64(rng.int(0...Int(max(0, activeUntil - createdAt))))
            let addedDay = Int(added / 86_400 - clock.today)
            let expiryDay = addedDay + (item.category == "Frozen" ? rng.int(30...365) : rng.int(-3...40))
            let storage: String? = rng.chance(0.1) ? nil : storageFor(category: item.category, rng: &rng)
            let source = rng.pick(["manual", "manual", "manual", "barcode", "barcode", "photo"])
            let consumed = expiryDay < activeDay && rng.chance(0.3)
            let deleted = rng.chance(0.05)
            let itemID = nextFoodID
            nextFoodID += 1
            emit(
                .food,
                .int(userID), .text(item.name), .text(item.category), .optionalText(storage),
                rng.chance(0.7) ? .text(rng.pick(DemoVocabulary.quantities)) : .null, .text(clock.day(expiryDay)),
                source == "photo" ? .text("photos/\(userID)/\(itemID).jpg") : .null,
                source == "photo" ? .int(rng.int(80_000...2_000_000)) : .null, .text(source),
                .text(clock.timestamp(added)), .text(clock.timestamp(added + Int64(rng.int(0...86_400)))),
                consumed ? .text(clock.timestamp(min(activeUntil, added + 86_400))) : .null,
                deleted ? .text(clock.timestamp(min(activeUntil, added + 3_600))) : .null)
            if !deleted, !consumed, rng.chance(0.2) {
                writeReminder(
                    userID: userID, kind: "food", itemID: itemID, expiryDay: expiryDay, clock: clock, rng: &rng)
            }
        }
    }

    private mutating func writeDocuments(
        userID: Int64, count: Int, firstName: String, createdAt: Int64, activeUntil: Int64,
        clock: SeedClock, rng: inout SeedRandom
    ) {
        for _ in 0..<count {
            let custom = rng.chance(0.1)
            let kind = rng.pick(DemoVocabulary.documentTypes)
            let number: String? =
                rng.chance(0.1) ? nil : documentNumber(type: kind.type, firstName: firstName, rng: &rng)
            let added = createdAt + Int64(rng.int(0...Int(max(0, activeUntil - createdAt))))
            let expiryDay = rng.int(-400...3_650)
            let deleted = rng.chance(0.03)
            let documentID = nextDocumentID
            nextDocumentID += 1
            emit(
                .documents,
                .int(userID), .text(custom ? "custom" : kind.type),
                custom ? .text(rng.pick(DemoVocabulary.customTypes)) : .null,
                .text(custom ? "My \(rng.pick(DemoVocabulary.customTypes))" : kind.title), .optionalText(number),
                .text(clock.day(expiryDay)), .text(clock.timestamp(added)), .text(clock.timestamp(added + 60)),
                deleted ? .text(clock.timestamp(activeUntil)) : .null)
            if !deleted, rng.chance(0.5) {
                writeReminder(
                    userID: userID, kind: "document", itemID: documentID, expiryDay: expiryDay, clock: clock, rng: &rng)
            }
        }
    }

    private func storageFor(category: String, rng: inout SeedRandom) -> String {
        switch category {
        case "Frozen": "Freezer"
        case "Dairy", "Meat", "Seafood": "Refrigerator"
        case "Fruits", "Vegetables": rng.pick(["Refrigerator", "Counter"])
        default: rng.pick(DemoVocabulary.storages)
        }
    }

    private func documentNumber(type: String, firstName: String, rng: inout SeedRandom) -> String {
        switch type {
        case "passport": "P\(rng.int(10_000_000...99_999_999))"
        case "drivers_license": "DL-\(rng.int(100_000...999_999))-\(firstName.prefix(2).uppercased())"
        case "insurance": "POL/\(rng.int(1_000...9_999))/<\(rng.int(10...99))>"
        default: "\(rng.int(1_000_000...9_999_999))"
        }
    }

    private mutating func writeReminder(
        userID: Int64, kind: String, itemID: Int64, expiryDay: Int, clock: SeedClock,
        rng: inout SeedRandom
    ) {
        let daysBefore = rng.pick([30, 15, 7, 1, 0])
        let scheduled = (clock.today + Int64(expiryDay - daysBefore)) * 86_400 + 9 * 3_600
        let status =
            scheduled > clock.nowSeconds
            ? "scheduled"
            : rng.chance(0.85) ? "sent" : rng.chance(0.5) ? "failed" : "cancelled"
        let sentAt = status == "sent" ? scheduled + Int64(rng.int(1...90)) : nil
        let openedAt = sentAt.flatMap { rng.chance(0.25) ? $0 + Int64(rng.int(30...40_000)) : nil }
        emit(
            .reminders,
            .int(userID), .text(kind), .int(itemID), .int(daysBefore),
            .text(SQLiteTime.string(secondsSinceEpoch: scheduled)),
            .text(status), sentAt.map { .text(clock.timestamp($0)) } ?? .null,
            openedAt.map { .text(clock.timestamp($0)) } ?? .null)
    }

    /// The sign-up, then `count` events: those of the last 60 days on a few active days,
    /// about 70% of them in the user's habitual local hour (their own timezone, DST and all)
    /// and the rest over the day's rhythm; older ones anywhere since the sign-up. The last is
    /// the login at `last_active_at`. Some users have only 1-4 active days in the window and
    /// some none, so that the usual hour's fallbacks (peers, everyone) have users to show.
    private mutating func writeEvents(
        userID: Int64, activity: Activity, createdAt: Int64, lastActive: Int64?, platform: String?,
        timezone: String, clock: SeedClock, rng: inout SeedRandom
    ) {
        let platformValue = SeedValue.optionalText(platform)
        emit(
            .events, .int(userID), .text("sign_up"), .null, platformValue,
            .text(SQLiteTime.string(secondsSinceEpoch: createdAt)))
        guard let lastActive else { return }
        let count: Int =
            switch activity {
            case .active: 10 + rng.exponential(mean: 25)
            case .idle: 5 + rng.exponential(mean: 12)
            case .inactive, .never: 3 + rng.exponential(mean: 8)
            }
        let budget = min(count, 2_000) - 1
        var times: [Int64] = []
        times.reserveCapacity(budget + 1)
        let windowStart = max(createdAt, clock.nowSeconds - Self.habitWindow * 86_400)
        if lastActive > windowStart {
            let firstDay = windowStart / 86_400
            let lastDay = lastActive / 86_400
            let wanted: Int =
                switch activity {
                case .active: rng.chance(0.12) ? rng.int(1...4) : 5 + rng.exponential(mean: 10)
                case .idle: rng.chance(0.45) ? rng.int(1...4) : 5 + rng.exponential(mean: 4)
                case .inactive, .never: rng.int(1...4)
                }
            let habit = DemoHabit.hour(user: userID)
            let available = Int(lastDay - firstDay) + 1
            // Days without repeats, cheaply: a random start and a stride prime to the days available.
            let strides = [1, 2, 3, 5, 7].filter { $0 == 1 || available % $0 != 0 }
            let step = Int64(strides[rng.int(0...(strides.count - 1))])
            let offset = Int64(rng.int(0...(available - 1)))
            for index in 0..<min(wanted, available) where times.count < budget {
                let day = lastDay - (offset + Int64(index) * step) % Int64(available)
                for _ in 0..<(rng.chance(0.5) ? 1 : rng.int(2...3)) where times.count < budget {
                    let hour = rng.chance(DemoHabit.share) ? habit : DemoHabit.weightedHour(&rng)
                    let time = localHours.start(of: hour, day: day, zone: timezone) + Int64(rng.int(0...3_599))
                    if time >= createdAt, time < lastActive { times.append(time) }
                }
            }
        }
        // The rest before the window, when the user was there then.
        let olderEnd = min(windowStart, lastActive)
        if olderEnd > createdAt {
            for _ in times.count..<budget {
                times.append(createdAt + Int64.random(in: 0...(olderEnd - createdAt), using: &rng))
            }
        }
        times.sort()
        times.append(lastActive)
        for (index, time) in times.enumerated() {
            let kind = index == times.count - 1 ? "login" : rng.pick(DemoVocabulary.eventKinds)
            let detail: SeedValue =
                switch kind {
                case "item_added": .text("{\"name\":\(jsonString(rng.pick(DemoVocabulary.foods).name))}")
                case "settings_changed": .text("{\"field\":\"quiet_start\",\"to\":\"22:00\"}")
                case "push_opened": .text("{\"delivery_id\":\"seed-campaign-\(rng.int(1...12))\"}")
                default: .null
                }
            emit(
                .events, .int(userID), .text(kind), detail, platformValue,
                .text(SQLiteTime.string(secondsSinceEpoch: time)))
        }
    }

    private func jsonString(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
