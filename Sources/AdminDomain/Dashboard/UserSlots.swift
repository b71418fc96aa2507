/// Maps a user id to a small dense index, so per-user figures live in flat arrays rather
/// than a dictionary of a million entries. Ids are dense in practice (rowids); a hostile or
/// sparse id above `denseLimit` (or below zero) falls back to a dictionary.
struct UserSlots: Sendable {
    static let denseLimit: Int64 = 8_000_000

    private var dense: [Int32] = []
    private var sparse: [Int64: Int32] = [:]
    private(set) var count = 0

    /// The slot of a user met for the first time; the same slot when met again.
    mutating func add(_ id: Int64) -> Int {
        if let slot = slot(of: id) { return slot }
        let slot = count
        count += 1
        if id >= 0 && id < Self.denseLimit {
            let index = Int(id)
            if index >= dense.count {
                dense.append(contentsOf: repeatElement(0, count: max(index + 1 - dense.count, dense.count / 4)))
            }
            dense[index] = Int32(slot + 1)
        } else {
            sparse[id] = Int32(slot)
        }
        return slot
    }

    func slot(of id: Int64) -> Int? {
        if id >= 0 && id < Int64(dense.count) {
            let value = dense[Int(id)]
            return value == 0 ? nil : Int(value) - 1
        }
        return sparse[id].map(Int.init)
    }
}
