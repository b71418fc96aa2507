import Foundation

/// The difference of two proportions with its 95% confidence interval by Newcombe's hybrid
/// score method (his method 10: Wilson score intervals of each proportion, combined; R. G.
/// Newcombe, Statistics in Medicine 17, 873–890, 1998). Unlike the textbook Wald interval it
/// stays inside −1…1 and does not collapse to a point when a group converted nobody, which
/// small holdouts and rare goals (upgrades) make common.
public struct LiftInterval: Sendable, Equatable, Codable {
    /// Recipients' rate minus the holdout's.
    public let difference: Double
    public let lower: Double
    public let upper: Double

    /// z for 95%, two-sided.
    public static let z = 1.959_963_984_540_054

    /// nil when either group is empty: there is nothing to compare.
    public init?(converted x1: Int, of n1: Int, against x2: Int, of n2: Int) {
        guard n1 > 0, n2 > 0, (0...n1).contains(x1), (0...n2).contains(x2) else { return nil }
        let p1 = Double(x1) / Double(n1)
        let p2 = Double(x2) / Double(n2)
        let (l1, u1) = Self.wilson(x1, n1)
        let (l2, u2) = Self.wilson(x2, n2)
        difference = p1 - p2
        lower = difference - ((p1 - l1) * (p1 - l1) + (u2 - p2) * (u2 - p2)).squareRoot()
        upper = difference + ((u1 - p1) * (u1 - p1) + (p2 - l2) * (p2 - l2)).squareRoot()
    }

    /// Wilson's score interval for x of n.
    static func wilson(_ x: Int, _ n: Int) -> (Double, Double) {
        let n = Double(n)
        let p = Double(x) / n
        let z2 = z * z
        let centre = p + z2 / (2 * n)
        let spread = z * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot()
        let denominator = 1 + z2 / n
        return ((centre - spread) / denominator, (centre + spread) / denominator)
    }

    /// Whether the interval leaves out zero: a lift, or a drop, distinguishable from none.
    public var excludesZero: Bool { lower > 0 || upper < 0 }

    /// In words, for the report.
    public var sentence: String {
        if lower > 0 { return "a lift distinguishable from none (the 95% interval lies above zero)" }
        if upper < 0 { return "a drop distinguishable from none (the 95% interval lies below zero)" }
        return "not distinguishable from no change (the 95% interval includes zero)"
    }
}
