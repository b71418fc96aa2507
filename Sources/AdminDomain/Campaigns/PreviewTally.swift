import Foundation

/// The audience preview's counts from its rows (user, reason, platform, provider, in quiet
/// hours, flags, device), which arrive in user order: devices are counted per row that has
/// one, users once each per reason when their last row has gone by.
struct PreviewTally {
    private var part = AudiencePreview()
    /// Whom the campaign's holdout takes, when it has one.
    var holdout: HoldoutDraw?
    private var user: Int64?
    /// The current user's reachable devices.
    private var userDevices = 0
    /// The reasons of the current user's rows, and the flags of its reachable rows.
    private var reasons: Set<String> = []
    private var flags: Int64 = 0
    /// Reasons, platforms and providers read from bytes, each made into a `String` once:
    /// a handful, so a scan beats hashing an array made per row.
    private var names: [([UInt8], String)] = []

    /// The users over the frequency cap: their reachable rows count as capped.
    var overCap: Set<Int64>

    init(holdout: HoldoutDraw? = nil, overCap: Set<Int64> = []) {
        self.holdout = holdout
        self.overCap = overCap
    }

    mutating func add(_ row: RawRow) {
        guard let id = row.integer(0) else { return }
        if id != user {
            flushUser()
            user = id
        }
        var reason = name(row, 1)
        if reason == "reachable", !overCap.isEmpty, overCap.contains(id) { reason = Exclusion.frequencyCap.rawValue }
        let hasDevice = !row.isNull(6)
        if reason == "reachable" {
            part.counts.reachableDevices += 1
            userDevices += 1
            part.counts.devicesByGroup[.init(platform: name(row, 2), provider: name(row, 3)), default: 0] += 1
            part.inQuietHours += Int(row.integer(4) ?? 0)
            flags |= row.integer(5) ?? 0
        } else if hasDevice, let exclusion = Exclusion(rawValue: reason) {
            part.counts.excludedDevices[exclusion, default: 0] += 1
        }
        reasons.insert(reason)
    }

    mutating func finish() -> AudiencePreview {
        flushUser()
        return part
    }

    private mutating func flushUser() {
        guard user != nil else { return }
        for reason in reasons {
            if reason == "reachable" {
                part.counts.reachableUsers += 1
                if flags & 1 != 0 { part.invalidTimeZones += 1 }
                if flags & 2 != 0 { part.malformedQuietHours += 1 }
                if flags & 32 != 0 { part.usersWithoutSettings += 1 }
                if let user, holdout?.holds(user) == true {
                    part.heldOutUsers += 1
                    part.heldOutDevices += userDevices
                }
                for (bit, group) in [(Int64(4), FallbackGroup.name), (8, .items), (16, .documents)]
                where flags & bit != 0 {
                    part.fallbackUsers[group, default: 0] += 1
                }
            } else if let exclusion = Exclusion(rawValue: reason) {
                part.counts.excludedUsers[exclusion, default: 0] += 1
            }
        }
        reasons.removeAll(keepingCapacity: true)
        flags = 0
        userDevices = 0
    }

    private mutating func name(_ row: RawRow, _ column: Int32) -> String {
        guard let bytes = row.bytes(column) else { return "" }
        for (key, text) in names
        where key.count == bytes.count
            && key.withUnsafeBytes({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 })
        {
            return text
        }
        let text = String(decoding: bytes, as: UTF8.self)
        // A hostile table may hold thousands of platforms: past a few, no scan grows longer.
        if names.count < 32 { names.append((Array(bytes), text)) }
        return text
    }
}
