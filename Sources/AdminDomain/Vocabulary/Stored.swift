import GRDB

/// A word of the app's vocabulary that the database stores as text. The raw value is the
/// stored text, so a term binds into a query as itself.
public protocol VocabularyTerm: RawRepresentable<String>, CaseIterable, Sendable, Hashable, DatabaseValueConvertible {}

extension VocabularyTerm {
    /// `'journey'`: the term as an SQL text literal, where a statement cannot bind it (its
    /// other values are named, or a partial index must see the text). Our own constant,
    /// never user text: the only way a term's text is written into SQL.
    var sqlLiteral: String { "'\(rawValue)'" }
}

/// A stored value as the panel reads it: a term it knows, or the text the data holds when it
/// is none of them (a newer backend, a row edited by hand). Reading never fails on a value
/// the panel does not know; pages show it as "unknown (value)".
public enum Stored<Term: VocabularyTerm>: Sendable, Hashable, CustomStringConvertible, DatabaseValueConvertible {
    case known(Term)
    case unknown(String)

    public init(_ text: String) {
        self = Term(rawValue: text).map(Self.known) ?? .unknown(text)
    }

    public var known: Term? {
        if case .known(let term) = self { term } else { nil }
    }

    /// The text as stored, for exports.
    public var storedText: String {
        switch self {
        case .known(let term): term.rawValue
        case .unknown(let text): text
        }
    }

    public var description: String {
        switch self {
        case .known(let term): term.rawValue
        case .unknown(let text): "unknown (\(text))"
        }
    }

    public var databaseValue: DatabaseValue { storedText.databaseValue }

    /// Text becomes a term or `unknown`; a number or blob where text belongs is `unknown`
    /// too, never a decoding error. NULL is no value.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Stored? {
        switch dbValue.storage {
        case .null: nil
        case .string(let text): Stored(text)
        case .int64(let number): .unknown(String(number))
        case .double(let number): .unknown(String(number))
        case .blob(let data): .unknown("\(data.count) bytes")
        }
    }
}
