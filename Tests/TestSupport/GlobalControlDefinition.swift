import AdminDomain

/// docs/impact.md's draw of the global control group, written here with full-width products
/// so that it does not lean on the product's reasoning about overflow: x0 = id mod p
/// (0 ≤ x0 < p), x1 = (a·x0 + b) mod p, x2 = (x1² + c) mod p, x3 = (d·x2 + b) mod p,
/// draw = x3 mod 10,000, with p = 2³¹ − 1; a member while draw < share × 100.
public enum GlobalControlDefinition {
    public static func draw(_ id: Int64, _ key: GlobalControlDraw.Key) -> Int {
        let p: UInt64 = 2_147_483_647
        func mulAdd(_ x: UInt64, _ y: UInt64, _ z: UInt64) -> UInt64 {
            let product = p.dividingFullWidth(x.multipliedFullWidth(by: y)).remainder
            return (product + z) % p
        }
        let magnitude = id.magnitude % p
        let x0 = id < 0 && magnitude != 0 ? p - magnitude : magnitude
        let x1 = mulAdd(x0, UInt64(key.a), UInt64(key.b))
        let x2 = mulAdd(x1, x1, UInt64(key.c))
        let x3 = mulAdd(x2, UInt64(key.d), UInt64(key.b))
        return Int(x3 % 10_000)
    }
}
