import AdminDomain
import Hummingbird

/// A report of figures as a CSV file (a campaign's impact, a journey's days): its rows, and its
/// export, which is audit-logged. No person is in it, so its row waits for the disk like a
/// change's.
protocol ReportCSV {
    associatedtype Report
    static var header: [String] { get }
    /// The columns a spreadsheet reads as numbers.
    static var numericColumns: Set<Int> { get }
    static func rows(_ report: Report) -> [[String]]
}

extension ReportCSV {
    /// The file `<kind>-<id>-<name>.csv`, once its export's row (target `<kind>:<id>`) is written.
    static func exported(
        _ report: Report, kind: String, id: Int64, name: String, action: AuditAction, detail: String,
        auditLog: AuditLog, context: StaffRequestContext
    ) async throws -> Response {
        try await auditLog.append([
            AuditEntry(
                actor: context.identity, clientAddress: context.clientAddress, action: action,
                target: "\(kind):\(id)", detail: detail)
        ])
        return CSV.response(
            filename: CSV.filename(kind, [String(id), name]), header: header, numeric: numericColumns,
            rows: rows(report))
    }
}
