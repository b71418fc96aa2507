import AdminDomain
import Foundation

/// One audit row for something a signed-in staff member looked at: who and from where come
/// from the request, so controllers name only what and to which target. Looks only: a
/// change writes its row in its own transaction, in the domain.
struct StaffAudit: Sendable {
    let log: AuditLog

    func callAsFunction(
        _ context: StaffRequestContext, _ action: AuditAction, target: String? = nil, detail: String? = nil
    ) async throws {
        try await log.appendLook(
            AuditEntry(
                actor: context.identity, clientAddress: context.clientAddress, action: action, target: target,
                detail: detail))
    }
}

extension AuditEntry {
    /// A look that showed several users at once (a preview's samples, a dry run's entries).
    static func shownUsers(_ users: [Int64], in page: String, of target: AuditTarget, _ context: StaffRequestContext)
        -> AuditEntry
    {
        AuditEntry(
            actor: context.identity, clientAddress: context.clientAddress, action: .campaignPreviewed,
            target: target.description,
            detail: "\(users.count) \(users.count == 1 ? "user" : "users") shown in \(page): "
                + users.map { "#\($0)" }.joined(separator: ", "))
    }
}

extension [URLQueryItem] {
    /// "name=value&…" as typed, for an audit row's detail.
    var auditDetail: String {
        map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")
    }
}
