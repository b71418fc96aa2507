import AdminDomain
import Foundation

extension PanelServices {
    /// One audit row for something a signed-in staff member did: who and from where come
    /// from the request, so controllers name only what and to which target.
    func audit(_ context: StaffRequestContext, _ action: AuditAction, target: String? = nil, detail: String? = nil) async throws {
        try await signIn.audit.append(AuditEntry(
            actor: context.identity, clientAddress: context.clientAddress, action: action, target: target,
            detail: detail))
    }
}

extension [URLQueryItem] {
    /// "name=value&…" as typed, for an audit row's detail.
    var auditDetail: String {
        map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")
    }
}
