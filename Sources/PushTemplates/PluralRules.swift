import Foundation

/// CLDR's cardinal plural categories, as far as the languages below need them.
public enum PluralCategory: String, Sendable, Equatable {
    case one
    case other
}

/// Which form a count takes, by CLDR's cardinal rules (https://cldr.unicode.org, "Language
/// Plural Rules") for integers:
///
/// - en, de, nl, es, it: one when n = 1
/// - pt, fr: one when i = 0 or 1 (CLDR's "pt" rule, which is Brazil's: pt_PT's own rule is
///   English's, but the `pt` templates serve every Portuguese locale)
/// - any other language: English's rule
///
/// CLDR's "many" of es, fr, it and pt (a million and its multiples) is not a count a
/// recipient has: it takes the plural ("other") form. A value that is not an integer (an
/// empty one's fallback such as "some" or "a few", "2.5", "two") takes the plural form too.
public enum PluralRules {
    /// Languages whose rule is "i = 0,1"; every other one uses "n = 1".
    static let zeroAndOneAreSingular: Set<String> = ["pt", "fr"]

    /// `language` is a code such as `pt` or a locale such as `pt-BR` (only its language counts).
    public static func category(of value: String, language: String) -> PluralCategory {
        guard let magnitude = integerMagnitude(value.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            return .other
        }
        let code = language.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? "en"
        if zeroAndOneAreSingular.contains(code) { return magnitude <= 1 ? .one : .other }
        return magnitude == 1 ? .one : .other
    }

    /// 0, 1, or 2 for anything larger, of an optionally signed run of ASCII digits; nil for
    /// anything else. Never overflows: only whether the value is 0 or 1 matters.
    static func integerMagnitude(_ text: String) -> Int? {
        var digits = Substring(text)
        if digits.first == "-" || digits.first == "+" { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let significant = digits.drop { $0 == "0" }
        if significant.isEmpty { return 0 }
        return significant == "1" ? 1 : 2
    }
}
