/// SplitMix64: small, fast and the same on every platform, so a seed always gives the
/// same database. Each user has its own stream, so one user's data never depends on another's.
/// The demo's simulated backend draws from it too, so that a test sees the same run each time.
public struct SeedRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64, stream: UInt64) {
        state = seed &* 0x9E37_79B9_7F4A_7C15 ^ stream &* 0xBF58_476D_1CE4_E5B9
        _ = next()
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    public mutating func chance(_ probability: Double) -> Bool {
        Double(next() >> 11) / Double(1 << 53) < probability
    }

    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &self)
    }

    /// A whole number of seconds (or an id) in `range`.
    public mutating func int64(_ range: ClosedRange<Int64>) -> Int64 {
        Int64.random(in: range, using: &self)
    }

    mutating func pick<T>(_ values: [T]) -> T {
        values[Int.random(in: 0..<values.count, using: &self)]
    }

    /// Roughly exponential with the given mean: many small values, a long tail.
    mutating func exponential(mean: Double) -> Int {
        let u = max(Double(next() >> 11) / Double(1 << 53), 1e-12)
        return Int(-mean * log(u))
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
