/// JSON text written straight into bytes: the two request bodies are small and fixed in
/// shape, and Foundation's encoder was a tenth of a send's CPU. Strings are escaped as RFC
/// 8259 asks (quote, backslash, and every control character); Swift strings are valid
/// UTF-8, so everything else is copied as it is.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    private var needsComma: [Bool] = [false]

    init(capacity: Int = 512) {
        bytes.reserveCapacity(capacity)
    }

    var count: Int { bytes.count }

    mutating func beginObject() {
        bytes.append(UInt8(ascii: "{"))
        needsComma.append(false)
    }

    mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma.removeLast()
    }

    /// The key of the next member; its value follows.
    mutating func key(_ key: String) {
        if needsComma[needsComma.count - 1] { bytes.append(UInt8(ascii: ",")) }
        needsComma[needsComma.count - 1] = true
        string(key)
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func member(_ key: String, _ value: String) {
        self.key(key)
        string(value)
    }

    mutating func member(_ key: String, _ value: Bool) {
        self.key(key)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// An object of string members, in the given order.
    mutating func member(_ key: String, object members: [(String, String)]) {
        self.key(key)
        beginObject()
        for (name, value) in members { member(name, value) }
        endObject()
    }

    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                let digits = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [
                    UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                    digits[Int(byte >> 4)], digits[Int(byte & 0x0F)],
                ])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
