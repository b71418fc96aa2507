import Testing

@testable import AdminWeb

/// Amounts the app stores in each currency's minor units, written with that currency's
/// ISO 4217 decimals. The expected texts are written here from the standard's list, not
/// from the panel's table.
@Suite(.timeLimit(.minutes(20))) struct MoneyFormat {
    static let cases: [(currency: String, stored: Int, shown: String, csv: String)] = [
        ("JPY", 299, "299 JPY", "299"),  // yen has no minor unit
        ("JPY", 0, "0 JPY", "0"),
        ("JPY", -299, "-299 JPY", "-299"),
        ("KRW", 15_000, "15,000 KRW", "15000"),
        ("EUR", 1_299, "12.99 EUR", "12.99"),
        ("EUR", -1_299, "-12.99 EUR", "-12.99"),
        ("EUR", 0, "0.00 EUR", "0.00"),
        ("USD", 5, "0.05 USD", "0.05"),
        ("USD", 123_456_789, "1,234,567.89 USD", "1234567.89"),
        ("GBP", 250, "2.50 GBP", "2.50"),
        ("BHD", 1_234, "1.234 BHD", "1.234"),  // three decimals: fils
        ("KWD", -1_005, "-1.005 KWD", "-1.005"),
        ("OMR", 7, "0.007 OMR", "0.007"),
        ("USD", Int.max, "92,233,720,368,547,758.07 USD", "92233720368547758.07"),
        ("EUR", Int.min, "-92,233,720,368,547,758.08 EUR", "-92233720368547758.08"),
    ]

    @Test(arguments: cases.indices) func eachCurrencyHasItsOwnMinorUnits(_ index: Int) {
        let row = Self.cases[index]
        #expect(Format.money(cents: row.stored, currency: row.currency) == row.shown)
        #expect(Format.moneyAmount(cents: row.stored, currency: row.currency) == row.csv)
    }

    /// A code the panel has no minor unit for is not given two decimals by guess: the amount
    /// is shown as stored, and says so.
    @Test func anUnknownCurrencyIsShownAsStored() {
        let shown = Format.money(cents: 1_234, currency: "XQQ")
        #expect(shown.contains("1,234") && shown.contains("XQQ") && shown.contains("as stored"))
        #expect(!shown.contains("12.34"))
        #expect(Format.moneyAmount(cents: 1_234, currency: "XQQ") == "1234")
    }
}
