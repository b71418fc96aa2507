/// The decimals of each currency's minor unit (ISO 4217, list one). A currency missing here
/// is shown as stored rather than given a guessed number of decimals.
enum CurrencyDigits {
    static func of(_ code: String) -> Int? {
        if none.contains(code) { return 0 }
        if three.contains(code) { return 3 }
        if four.contains(code) { return 4 }
        return two.contains(code) ? 2 : nil
    }

    static let none = codes("BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF")
    static let three = codes("BHD IQD JOD KWD LYD OMR TND")
    static let four = codes("CLF UYW")
    static let two = codes(
        """
        AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BRL BSD BTN
        BWP BYN BZD CAD CDF CHF CNY COP CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD
        FKP GBP GEL GHS GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR
        KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN
        MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD
        SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD
        TZS UAH USD UYU UZS VES WST XCD YER ZAR ZMW ZWG
        """)

    /// Codes separated by spaces and lines: a list one can read and check against the standard.
    private static func codes(_ list: String) -> Set<String> {
        Set(list.split(whereSeparator: \.isWhitespace).map(String.init))
    }
}
