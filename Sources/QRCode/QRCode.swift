/// A QR code (ISO/IEC 18004) in byte mode at error-correction level M, versions 1 to 40:
/// enough for an `otpauth://` address, drawn on the server so the enrolment page needs no
/// script and no third-party service ever sees the key.
public struct QRCode: Equatable, Sendable {
    public let version: Int
    public let mask: Int
    /// `modules[row][column]`: true is dark.
    public let modules: [[Bool]]
    public var size: Int { modules.count }

    public enum EncodeError: Error {
        case tooLong(bytes: Int)
    }

    /// Encodes `bytes` in the smallest version that holds them; with `mask` nil, the mask
    /// with the lowest penalty score, as the standard prescribes.
    public static func encode(_ bytes: [UInt8], mask: Int? = nil) throws -> QRCode {
        guard let version = (1...40).first(where: { bitsNeeded(bytes.count, version: $0) <= dataCapacity($0) * 8 })
        else {
            throw EncodeError.tooLong(bytes: bytes.count)
        }
        var grid = QRGrid(version: version)
        grid.drawFunctionPatterns()
        grid.drawCodewords(interleavedCodewords(data: dataCodewords(bytes, version: version), version: version))
        let final: QRGrid
        if let mask {
            final = grid.masked(mask)
        } else {
            // Each mask drawn and scored once; the first of equal scores wins, as in the standard.
            let candidates = (0..<8).map { grid.masked($0) }
            let scores = candidates.map { $0.penalty() }
            final = candidates[scores.firstIndex(of: scores.min()!)!]
        }
        return QRCode(version: version, mask: final.mask ?? 0, modules: final.modules)
    }

    private static func bitsNeeded(_ count: Int, version: Int) -> Int {
        4 + (version <= 9 ? 8 : 16) + 8 * count
    }

    /// Data codewords a version holds at level M, after its error correction.
    static func dataCapacity(_ version: Int) -> Int {
        rawDataModules(version) / 8 - QRTables.eccPerBlock[version] * QRTables.blockCount[version]
    }

    /// Modules left for data and error correction once the function patterns are drawn.
    static func rawDataModules(_ version: Int) -> Int {
        var result = (16 * version + 128) * version + 64
        if version >= 2 {
            let alignments = version / 7 + 2
            result -= (25 * alignments - 10) * alignments - 55
            if version >= 7 { result -= 36 }
        }
        return result
    }

    /// Mode indicator, length, the bytes, terminator and the standard's pad bytes.
    private static func dataCodewords(_ bytes: [UInt8], version: Int) -> [UInt8] {
        var bits = BitBuffer()
        bits.append(0b0100, count: 4)
        bits.append(bytes.count, count: version <= 9 ? 8 : 16)
        for byte in bytes { bits.append(Int(byte), count: 8) }
        let capacity = dataCapacity(version) * 8
        bits.append(0, count: min(4, capacity - bits.count))
        bits.append(0, count: (8 - bits.count % 8) % 8)
        var codewords = bits.bytes
        var pad: UInt8 = 0xEC
        while codewords.count < capacity / 8 {
            codewords.append(pad)
            pad ^= 0xEC ^ 0x11
        }
        return codewords
    }

    /// Splits the data into blocks, appends each block's Reed-Solomon codewords, and
    /// interleaves them column by column.
    private static func interleavedCodewords(data: [UInt8], version: Int) -> [UInt8] {
        let blockCount = QRTables.blockCount[version]
        let eccLength = QRTables.eccPerBlock[version]
        let rawCodewords = rawDataModules(version) / 8
        let shortBlocks = blockCount - rawCodewords % blockCount
        let shortLength = rawCodewords / blockCount
        let divisor = ReedSolomon.divisor(degree: eccLength)
        var blocks: [(data: [UInt8], ecc: [UInt8])] = []
        var offset = 0
        for index in 0..<blockCount {
            let dataLength = shortLength - eccLength + (index < shortBlocks ? 0 : 1)
            let block = Array(data[offset..<offset + dataLength])
            offset += dataLength
            blocks.append((block, ReedSolomon.remainder(block, divisor: divisor)))
        }
        var result: [UInt8] = []
        result.reserveCapacity(rawCodewords)
        let longest = blocks.map(\.data.count).max() ?? 0
        for column in 0..<longest {
            for block in blocks where column < block.data.count { result.append(block.data[column]) }
        }
        for column in 0..<eccLength {
            for block in blocks { result.append(block.ecc[column]) }
        }
        return result
    }
}

/// Bits appended most significant first.
private struct BitBuffer {
    private(set) var bits: [Bool] = []
    var count: Int { bits.count }

    mutating func append(_ value: Int, count: Int) {
        for shift in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> shift) & 1 == 1) }
    }

    var bytes: [UInt8] {
        stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<start + 8].reduce(0) { $0 << 1 | ($1 ? 1 : 0) }
        }
    }
}
