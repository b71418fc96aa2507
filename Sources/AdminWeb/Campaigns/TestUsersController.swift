import AdminDomain
import Foundation
import Hummingbird

/// The test users, who alone get campaigns' test sends: listed, added by email, removed.
/// Each change and each look at the list is audited.
struct TestUsersController {
    let testUsers: TestUsers
    let auditLog: AuditLog

    func addRoutes(to routes: inout StaffRoutes) {
        routes.get(.testUsers(), requires: .manageCampaigns, query: ["notice"], use: show)
        // Refused on its way (a control character, an out-of-date token): the list with the email as typed.
        routes.post(
            .testUsers(), requires: .manageCampaigns, fields: ["email"],
            form: FormRules.Rule(showAgain: { [self] form, refusal, context in
                try await page(
                    context, problem: refusal.sentence, typed: String((form["email"] ?? "").prefix(320)),
                    status: refusal.status
                ).response()
            }), use: add)
        routes.post(.removeTestUser(userID: nil), requires: .manageCampaigns, use: remove)
    }

    @Sendable func show(request: Request, context: StaffRequestContext) async throws -> HTMLPage {
        let notice = request.queryFields["notice"].flatMap(TestUsersView.Notice.init(rawValue:))
        return try await page(context, notice: notice)
    }

    @Sendable func add(request: Request, context: StaffRequestContext) async throws -> Response {
        let email = String((try await request.formFields()["email"] ?? "").prefix(320))
        do {
            _ = try await testUsers.add(email: email, by: .staff(context.identity, from: context.clientAddress))
        } catch let error as CampaignError {
            return try await page(
                context, problem: "Not added: \(error.description).", typed: email, status: .badRequest
            ).response()
        }
        return .redirect(to: SiteURL.testUsers(notice: TestUsersView.Notice.added.rawValue).href, type: .normal)
    }

    @Sendable func remove(request: Request, context: StaffRequestContext) async throws -> Response {
        guard let id = context.parameters.get("id", as: Int64.self), id > 0 else { throw HTTPError(.notFound) }
        do {
            try await testUsers.remove(userID: id, by: .staff(context.identity, from: context.clientAddress))
        } catch let error as CampaignError {
            return try await page(context, problem: "Nothing changed: \(error.description).", status: .conflict)
                .response()
        }
        return .redirect(to: SiteURL.testUsers(notice: TestUsersView.Notice.removed.rawValue).href, type: .normal)
    }

    private func page(
        _ context: StaffRequestContext, notice: TestUsersView.Notice? = nil, problem: String? = nil, typed: String = "",
        status: HTTPResponse.Status = .ok
    ) async throws -> HTMLPage {
        let entries = try await testUsers.list()
        // The list shows app users' emails: a look at personal data, a row per user shown.
        try await auditLog.append(
            entries.map {
                AuditEntry(
                    actor: context.identity, clientAddress: context.clientAddress, action: .testUsersViewed,
                    target: "user:\($0.userID)")
            })
        return HTMLPage(
            TestUsersView(
                entries: entries, domains: testUsers.domains, notice: notice, problem: problem, typed: typed,
                viewer: context.viewer),
            status: status)
    }
}
