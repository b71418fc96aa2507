import Foundation
import GRDB

/// Each user's platforms (bit 1 iOS, bit 2 Android), from one pass over `devices` by id at a
/// full count and the devices added since at each refresh: looked up per reminder, the
/// devices' index cost two thirds of a count's reads.
struct DevicePlatforms: Sendable {
    /// By user id up to `denseLimit`: a byte a user.
    private var dense: [UInt8] = []
    /// Larger ids, from a database whose ids are not the backend's.
    private var sparse: [Int64: UInt8] = [:]
    /// The largest device id read: new devices have larger ones.
    private(set) var lastDeviceID: Int64 = .min
    static let denseLimit: Int64 = 1 << 24

    func platforms(of user: Int64) -> ReminderHealthReport.Platforms {
        let bits = user >= 0 && user < Int64(dense.count) ? dense[Int(user)] : (sparse[user] ?? 0)
        return switch bits {
        case 1: .iosOnly
        case 2: .androidOnly
        case 3: .both
        default: .none
        }
    }

    mutating func add(user: Int64, bits: UInt8) {
        if user >= 0 && user < Self.denseLimit {
            if user >= Int64(dense.count) {
                dense += [UInt8](repeating: 0, count: Int(user) - dense.count + 1 + dense.count / 2)
            }
            dense[Int(user)] |= bits
        } else {
            sparse[user, default: 0] |= bits
        }
    }

    /// Reads the devices after `lastDeviceID`, in short reads at low priority.
    mutating func readNew(from database: PanelDatabase, rowsPerRead: Int = 50_000) async throws {
        while true {
            let after = lastDeviceID
            let batch = try await database.readAtLowPriority { db in
                var rows: [(id: Int64, user: Int64, bits: UInt8)] = []
                _ = try db.forEachRawRow(
                    SQL(
                        sql: """
                            SELECT id, user_id, platform = 'ios', platform = 'android' FROM devices
                            WHERE id > ? ORDER BY id LIMIT ?
                            """, arguments: [after, rowsPerRead])
                ) { row in
                    guard let id = row.integer(0) else { return }
                    let bits = UInt8(row.integer(2) == 1 ? 1 : 0) | UInt8(row.integer(3) == 1 ? 2 : 0)
                    rows.append((id, row.integer(1) ?? -1, bits))
                }
                return rows
            }
            for row in batch {
                add(user: row.user, bits: row.bits)
                lastDeviceID = max(lastDeviceID, row.id)
            }
            if batch.count < rowsPerRead { return }
        }
    }
}
