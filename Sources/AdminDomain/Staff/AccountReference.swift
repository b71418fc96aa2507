import GRDB

/// A staff account as a command names it: by id (the staff page) or by email (the CLI).
public enum AccountReference: Sendable, CustomStringConvertible {
    case id(Int64)
    case email(String)

    var request: QueryInterfaceRequest<Admin> {
        switch self {
        case .id(let id): Admin.filter(Admin.Columns.id == id)
        case .email(let email):
            Admin.filter(Admin.Columns.email == email.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    public var description: String {
        switch self {
        case .id(let id): "#\(id)"
        case .email(let email): email.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }
}
