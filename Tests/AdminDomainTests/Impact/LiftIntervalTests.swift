import AdminDomain
import Foundation
import Testing

/// The lift's 95% interval against published values: R. G. Newcombe, "Interval estimation for
/// the difference between independent proportions: comparison of eleven methods", Statistics
/// in Medicine 17 (1998) 873–890, Table II, method 10 (score interval, no continuity correction).
@Suite(.timeLimit(.minutes(20))) struct LiftIntervalTests {
    struct Published: Sendable, CustomTestStringConvertible {
        let x1: Int, n1: Int, x2: Int, n2: Int
        let lower: Double, upper: Double
        var testDescription: String { "\(x1)/\(n1) − \(x2)/\(n2)" }
    }

    static let table: [Published] = [
        Published(x1: 56, n1: 70, x2: 48, n2: 80, lower: 0.0524, upper: 0.3339),
        Published(x1: 9, n1: 10, x2: 3, n2: 10, lower: 0.1705, upper: 0.8090),
        Published(x1: 5, n1: 56, x2: 0, n2: 29, lower: -0.0381, upper: 0.1926),
        Published(x1: 0, n1: 10, x2: 0, n2: 20, lower: -0.1611, upper: 0.2775),
        Published(x1: 0, n1: 10, x2: 0, n2: 10, lower: -0.2775, upper: 0.2775),
        Published(x1: 10, n1: 10, x2: 0, n2: 20, lower: 0.6791, upper: 1.0000),
        Published(x1: 10, n1: 10, x2: 0, n2: 10, lower: 0.6075, upper: 1.0000),
    ]

    /// To four decimals, as the table prints them.
    static func fourDecimals(_ value: Double) -> Int { Int((value * 10_000).rounded()) }

    @Test(arguments: table)
    func theIntervalMatchesNewcombesTableToFourDecimals(_ row: Published) throws {
        let interval = try #require(LiftInterval(converted: row.x1, of: row.n1, against: row.x2, of: row.n2))
        #expect(
            Self.fourDecimals(interval.lower) == Self.fourDecimals(row.lower),
            "lower \(interval.lower), published \(row.lower)")
        #expect(
            Self.fourDecimals(interval.upper) == Self.fourDecimals(row.upper),
            "upper \(interval.upper), published \(row.upper)")
        #expect(abs(interval.difference - (Double(row.x1) / Double(row.n1) - Double(row.x2) / Double(row.n2))) < 1e-12)
        #expect(interval.lower >= -1 && interval.upper <= 1)
    }

    @Test func swappingTheGroupsMirrorsTheInterval() throws {
        for row in Self.table {
            let forward = try #require(LiftInterval(converted: row.x1, of: row.n1, against: row.x2, of: row.n2))
            let backward = try #require(LiftInterval(converted: row.x2, of: row.n2, against: row.x1, of: row.n1))
            #expect(
                abs(forward.lower + backward.upper) < 1e-12 && abs(forward.upper + backward.lower) < 1e-12,
                "\(row.testDescription)")
        }
    }

    @Test func anEmptyGroupOrImpossibleCountsGiveNoInterval() {
        #expect(LiftInterval(converted: 0, of: 0, against: 1, of: 10) == nil)
        #expect(LiftInterval(converted: 1, of: 10, against: 0, of: 0) == nil)
        #expect(LiftInterval(converted: 11, of: 10, against: 0, of: 10) == nil)
        #expect(LiftInterval(converted: -1, of: 10, against: 0, of: 10) == nil)
    }
}
