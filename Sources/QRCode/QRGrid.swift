/// The module grid while a code is drawn: which modules belong to fixed patterns, and
/// the data placed in the rest.
struct QRGrid {
    let version: Int
    let size: Int
    /// The mask applied by `masked(_:)`; nil before.
    private(set) var mask: Int?
    private(set) var modules: [[Bool]]
    private var isFunction: [[Bool]]

    init(version: Int) {
        self.version = version
        size = version * 4 + 17
        modules = Array(repeating: Array(repeating: false, count: size), count: size)
        isFunction = modules
    }

    private mutating func set(x: Int, y: Int, _ dark: Bool) {
        modules[y][x] = dark
        isFunction[y][x] = true
    }

    mutating func drawFunctionPatterns() {
        for i in 0..<size {
            set(x: 6, y: i, i % 2 == 0)
            set(x: i, y: 6, i % 2 == 0)
        }
        for (x, y) in [(3, 3), (size - 4, 3), (3, size - 4)] {
            for dy in -4...4 {
                for dx in -4...4 where (0..<size).contains(x + dx) && (0..<size).contains(y + dy) {
                    let distance = max(abs(dx), abs(dy))
                    set(x: x + dx, y: y + dy, distance != 2 && distance != 4)
                }
            }
        }
        let positions = alignmentPositions
        for (i, x) in positions.enumerated() {
            for (j, y) in positions.enumerated() {
                let nearFinder =
                    (i == 0 && j == 0) || (i == 0 && j == positions.count - 1) || (i == positions.count - 1 && j == 0)
                guard !nearFinder else { continue }
                for dy in -2...2 {
                    for dx in -2...2 { set(x: x + dx, y: y + dy, max(abs(dx), abs(dy)) != 1) }
                }
            }
        }
        // Reserved now, written with the chosen mask at the end.
        drawFormatBits(mask: 0)
        drawVersionBits()
    }

    /// Centres of the alignment patterns along each axis.
    var alignmentPositions: [Int] {
        guard version > 1 else { return [] }
        let count = version / 7 + 2
        let step = (version * 8 + count * 3 + 5) / (count * 4 - 4) * 2
        var result = [6]
        var position = size - 7
        while result.count < count {
            result.insert(position, at: 1)
            position -= step
        }
        return result
    }

    mutating func drawFormatBits(mask: Int) {
        let data = QRTables.levelBits << 3 | mask
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        let bits = (data << 10 | remainder) ^ 0x5412
        func bit(_ i: Int) -> Bool { (bits >> i) & 1 == 1 }
        for i in 0...5 { set(x: 8, y: i, bit(i)) }
        set(x: 8, y: 7, bit(6))
        set(x: 8, y: 8, bit(7))
        set(x: 7, y: 8, bit(8))
        for i in 9..<15 { set(x: 14 - i, y: 8, bit(i)) }
        for i in 0..<8 { set(x: size - 1 - i, y: 8, bit(i)) }
        for i in 8..<15 { set(x: 8, y: size - 15 + i, bit(i)) }
        set(x: 8, y: size - 8, true)
    }

    private mutating func drawVersionBits() {
        guard version >= 7 else { return }
        var remainder = version
        for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
        let bits = version << 12 | remainder
        for i in 0..<18 {
            let dark = (bits >> i) & 1 == 1
            let a = size - 11 + i % 3
            let b = i / 3
            set(x: a, y: b, dark)
            set(x: b, y: a, dark)
        }
    }

    /// Places the codewords in the standard's zigzag, two columns at a time from the
    /// bottom right, skipping the vertical timing column.
    mutating func drawCodewords(_ codewords: [UInt8]) {
        var index = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            for vertical in 0..<size {
                for j in 0..<2 {
                    let x = right - j
                    let upward = (right + 1) & 2 == 0
                    let y = upward ? size - 1 - vertical : vertical
                    if !isFunction[y][x] && index < codewords.count * 8 {
                        modules[y][x] = (codewords[index >> 3] >> (7 - (index & 7))) & 1 == 1
                        index += 1
                    }
                }
            }
            right -= 2
        }
    }

    /// A copy with data modules flipped by `mask` and that mask's format bits written.
    func masked(_ mask: Int) -> QRGrid {
        var copy = self
        for y in 0..<size {
            for x in 0..<size where !isFunction[y][x] {
                let flip =
                    switch mask {
                    case 0: (x + y) % 2 == 0
                    case 1: y % 2 == 0
                    case 2: x % 3 == 0
                    case 3: (x + y) % 3 == 0
                    case 4: (x / 3 + y / 2) % 2 == 0
                    case 5: x * y % 2 + x * y % 3 == 0
                    case 6: (x * y % 2 + x * y % 3) % 2 == 0
                    default: ((x + y) % 2 + x * y % 3) % 2 == 0
                    }
                if flip { copy.modules[y][x].toggle() }
            }
        }
        copy.drawFormatBits(mask: mask)
        copy.mask = mask
        return copy
    }

    /// The standard's four penalty rules; the mask with the lowest score is used.
    func penalty() -> Int {
        var score = 0
        let columns = (0..<size).map { x in modules.map { $0[x] } }
        for line in modules + columns {
            var run = 1
            for i in 1...line.count {
                if i < line.count && line[i] == line[i - 1] {
                    run += 1
                } else {
                    if run >= 5 { score += 3 + run - 5 }
                    run = 1
                }
            }
            score += 40 * Self.finderLikeCount(line)
        }
        for y in 0..<size - 1 {
            for x in 0..<size - 1 {
                let colour = modules[y][x]
                if modules[y][x + 1] == colour && modules[y + 1][x] == colour && modules[y + 1][x + 1] == colour {
                    score += 3
                }
            }
        }
        let dark = modules.reduce(0) { $0 + $1.filter { $0 }.count }
        let total = size * size
        score += ((abs(dark * 20 - total * 10) + total - 1) / total - 1) * 10
        return score
    }

    /// 1:1:3:1:1 dark-light runs with four light modules on either side.
    private static func finderLikeCount(_ line: [Bool]) -> Int {
        let core: [Bool] = [true, false, true, true, true, false, true]
        let light = [Bool](repeating: false, count: 4)
        let patterns = [core + light, light + core]
        var count = 0
        for pattern in patterns where line.count >= pattern.count {
            for start in 0...(line.count - pattern.count) where Array(line[start..<start + pattern.count]) == pattern {
                count += 1
            }
        }
        return count
    }
}
