import AdminDomain
import Foundation
import Hummingbird

/// The global control group's settings page: admins read the share and its history and put
/// a new share in force; the change and its audit row commit together (`GlobalControl.set`).
struct GlobalControlController {
    let control: GlobalControl

    func addRoutes(to routes: inout StaffRoutes) {
        routes.get(.globalControl(), requires: .setGlobalControl, query: ["notice"], use: show)
        routes.post(
            .globalControl(), requires: .setGlobalControl, fields: ["percent"],
            form: FormRules.Rule(showAgain: { [self] form, refusal, context in
                try await page(
                    context, problem: refusal.sentence, typed: String((form["percent"] ?? "").prefix(20)),
                    status: refusal.status
                ).response()
            }), use: change)
    }

    @Sendable func show(request: Request, context: StaffRequestContext) async throws -> HTMLPage {
        guard let notice = request.queryFields["notice"] else { return try await page(context) }
        guard notice == "changed" else {
            throw PanelError(status: .badRequest, sentence: "This page has no notice of that name.")
        }
        return try await page(context, changed: true)
    }

    @Sendable func change(request: Request, context: StaffRequestContext) async throws -> Response {
        let typed = String((try await request.formFields()["percent"] ?? "").prefix(20))
        do {
            let percent = try GlobalControl.percent(typed: typed).get()
            try await control.set(percent: percent, by: .staff(context.identity, from: context.clientAddress))
        } catch let refusal as GlobalControlRefusal {
            return try await page(context, problem: refusal.description, typed: typed, status: .badRequest).response()
        }
        return .redirect(to: SiteURL.globalControl(changed: true).href, type: .normal)
    }

    private func page(
        _ context: StaffRequestContext, changed: Bool = false, problem: String? = nil, typed: String? = nil,
        status: HTTPResponse.Status = .ok
    ) async throws -> HTMLPage {
        HTMLPage(
            GlobalControlView(
                settings: try await control.settings(), changed: changed, problem: problem, typed: typed,
                viewer: context.viewer),
            status: status)
    }
}
