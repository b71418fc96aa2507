import GRDB

/// What one sign-in throttle count is about, kept as separate columns so that no text typed
/// into the sign-in form can name another count: an email holding `|`, an address or a NUL
/// is only ever an email.
public struct ThrottleKey: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Codable, CaseIterable, DatabaseValueConvertible {
        /// One account from one client address.
        case pair
        /// One client address, whatever account it tries.
        case address
        /// One account, from any address.
        case account
    }

    public let kind: Kind
    /// '' for an address's count.
    public let email: String
    /// '' for an account's count.
    public let address: String

    /// The key a form or a command names; nil when its parts do not fit its kind.
    public init?(kind: Kind, email: String, address: String) {
        switch kind {
        case .pair: guard !address.isEmpty else { return nil }
        case .address: guard email.isEmpty, !address.isEmpty else { return nil }
        case .account: guard address.isEmpty else { return nil }
        }
        self.kind = kind
        self.email = email
        self.address = address
    }

    /// As stored or as the throttle builds it.
    init(_ kind: Kind, _ email: String, _ address: String) {
        self.kind = kind
        self.email = email
        self.address = address
    }

    static func pair(email: String, address: String) -> ThrottleKey { ThrottleKey(.pair, email, address) }
    static func address(_ address: String) -> ThrottleKey { ThrottleKey(.address, "", address) }
    static func account(email: String) -> ThrottleKey { ThrottleKey(.account, email, "") }

    /// For people (the audit log's target, the command line's report), never parsed back.
    public var description: String {
        switch kind {
        case .pair: "pair:\(email)|\(address)"
        case .address: "address:\(address)"
        case .account: "account:\(email)"
        }
    }

    /// The row of this count.
    var condition: SQLExpression {
        ThrottleEntry.Columns.kind == kind && ThrottleEntry.Columns.email == email
            && ThrottleEntry.Columns.address == address
    }
}
