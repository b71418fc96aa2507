/// What an audit row is about, as its `target` column names it: `user:7`, `campaign:18`, `journey:21`,
/// `staff:3`. Rows written before staff accounts were named so say `admin:3`: the log is
/// append-only and they stay as written, read as `staff:3` and found by either spelling.
public enum AuditTarget: Sendable, Hashable, CustomStringConvertible {
    case user(Int64)
    case campaign(Int64)
    case journey(Int64)
    case staff(Int64)
    /// Anything else, as stored: a sign-in throttle key, a path, "all".
    case other(String)

    public init(stored: String) {
        let parts = stored.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let id = Int64(parts[1]), id > 0, String(id) == parts[1] else {
            self = .other(stored)
            return
        }
        switch parts[0] {
        case "user": self = .user(id)
        case "campaign": self = .campaign(id)
        case "journey": self = .journey(id)
        case "staff", "admin": self = .staff(id)
        default: self = .other(stored)
        }
    }

    /// As new rows store it, and as pages show it.
    public var description: String {
        switch self {
        case .user(let id): "user:\(id)"
        case .campaign(let id): "campaign:\(id)"
        case .journey(let id): "journey:\(id)"
        case .staff(let id): "staff:\(id)"
        case .other(let text): text
        }
    }

    /// Every spelling stored rows may use for it, for filters.
    public var storedForms: [String] {
        if case .staff(let id) = self { return [description, "admin:\(id)"] }
        return [description]
    }
}
