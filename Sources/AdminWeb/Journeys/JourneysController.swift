import AdminDomain
import Foundation
import HTTPTypes
import Hummingbird
import PushTemplates

/// Journeys' pages: marketing and admins create, edit a draft, activate, pause, resume, end
/// and delete a draft; support reads the list, the pages and the report. Every change is
/// audited by the domain; every look at a user (the dry run's samples) here.
struct JourneysController {
    let source: JourneyPageModel.Source
    let templates: PushTemplateLibrary
    let templateProblem: String?
    let auditLog: AuditLog

    /// Reading needs what every role has; changing needs the campaigns' permission.
    static let read = Permission.viewDashboard
    static let write = Permission.manageCampaigns

    func addRoutes(to routes: inout StaffRoutes) {
        routes.get(.journeys(), requires: Self.read, query: ["notice"], use: list)
        routes.get(.newJourney, requires: Self.write, use: newForm)
        routes.post(
            .newJourney, requires: Self.write, fields: JourneyForm.fieldNames, form: formRule(editing: false),
            use: create)
        routes.get(.journey(id: nil), requires: Self.read, query: ["notice"], use: show)
        routes.get(.journeyEdit(id: nil), requires: Self.write, use: editor)
        routes.post(
            .journeyEdit(id: nil), requires: Self.write, fields: JourneyForm.fieldNames, form: formRule(editing: true),
            use: saveEdit)
        for action in JourneyAction.allCases {
            routes.post(.journeyAction(id: nil, action), requires: Self.write, use: act(action))
        }
        routes.get(.journeyReport(id: nil), requires: Self.read, use: reportCSV)
    }

    @Sendable func list(request: Request, context: StaffRequestContext) async throws -> HTMLPage {
        let notice = request.queryFields["notice"].flatMap { JourneyNotice(rawValue: $0) }.flatMap {
            $0 == .deleted ? $0 : nil
        }
        let model = try await JourneyListModel.load(
            source, .init(notice: notice, mayWrite: context.identity.role.may(Self.write)))
        return HTMLPage(JourneyListView(model: model, viewer: context.viewer))
    }

    @Sendable func newForm(request: Request, context: StaffRequestContext) async throws -> HTMLPage {
        HTMLPage(
            JourneyFormView(
                model: JourneyFormModel(library: templates, templateProblem: templateProblem), viewer: context.viewer))
    }

    @Sendable func create(request: Request, context: StaffRequestContext) async throws -> Response {
        let form = JourneyForm(form: try await request.formFields())
        let (draft, problems, fields) = form.read(templates: templates)
        guard let draft else {
            return refused(form, problems, fields: fields, status: .badRequest, editing: nil, context)
        }
        let id: Int64
        do {
            id = try await source.journeys.create(draft, by: actor(context))
        } catch let error as CampaignError {
            return refused(form, ["Not saved: \(error.description)."], status: .badRequest, editing: nil, context)
        }
        return .redirect(to: SiteURL.journey(id: id, notice: .created).href, type: .normal)
    }

    @Sendable func show(request: Request, context: StaffRequestContext) async throws -> HTMLPage {
        let id = try journeyID(context)
        let notice = request.queryFields["notice"].flatMap { JourneyNotice(rawValue: $0) }
        return try await page(context, .init(id: id, notice: notice))
    }

    @Sendable func editor(request: Request, context: StaffRequestContext) async throws -> Response {
        let id = try journeyID(context)
        guard let journey = try await source.journeys.find(id) else { throw PanelError.notFound("No journey #\(id).") }
        guard journey.status == .draft else {
            return try await page(context, .init(id: id, problems: [Self.notDraft(journey)]), status: .conflict)
                .response()
        }
        let model = JourneyFormModel(
            form: JourneyForm(journey: journey), library: templates, templateProblem: templateProblem, editing: id)
        return HTMLPage(JourneyFormView(model: model, viewer: context.viewer)).response()
    }

    @Sendable func saveEdit(request: Request, context: StaffRequestContext) async throws -> Response {
        let id = try journeyID(context)
        guard let journey = try await source.journeys.find(id) else { throw PanelError.notFound("No journey #\(id).") }
        guard journey.status == .draft else {
            return try await page(
                context, .init(id: id, problems: [Self.notDraft(journey) + " Nothing was saved."]), status: .conflict
            ).response()
        }
        let form = JourneyForm(form: try await request.formFields())
        let (draft, problems, fields) = form.read(templates: templates)
        guard let draft else {
            return refused(form, problems, fields: fields, status: .badRequest, editing: id, context)
        }
        do {
            try await source.journeys.edit(id, to: draft, by: actor(context))
        } catch let error as CampaignError {
            return refused(form, ["Not saved: \(error.description)."], status: .conflict, editing: id, context)
        }
        await source.dryRuns.forget(id)
        return .redirect(to: SiteURL.journey(id: id, notice: .edited).href, type: .normal)
    }

    func act(_ action: JourneyAction) -> @Sendable (Request, StaffRequestContext) async throws -> Response {
        { [source] _, context in
            let id = try journeyID(context)
            guard try await source.journeys.find(id) != nil else { throw PanelError.notFound("No journey #\(id).") }
            let by = self.actor(context)
            do {
                switch action {
                case .activate: try await source.journeys.activate(id, by: by)
                case .pause: try await source.journeys.pause(id, by: by)
                case .resume: try await source.journeys.resume(id, by: by)
                case .end: try await source.journeys.end(id, by: by)
                case .delete:
                    try await source.journeys.delete(id, by: by)
                    await source.dryRuns.forget(id)
                    return .redirect(to: SiteURL.journeys(notice: .deleted).href, type: .normal)
                }
            } catch let error as CampaignError {
                return try await page(
                    context, .init(id: id, problems: ["Nothing changed: \(error.description)."]), status: .conflict
                ).response()
            }
            await source.reports.forget(id)
            await source.dryRuns.forget(id)
            return .redirect(to: SiteURL.journey(id: id, notice: action.notice).href, type: .normal)
        }
    }

    /// The page, with a row in the audit log naming the users its dry run shows.
    func page(_ context: StaffRequestContext, _ input: JourneyPageModel.Input, status: HTTPResponse.Status = .ok)
        async throws -> HTMLPage
    {
        var input = input
        input.mayWrite = context.identity.role.may(Self.write)
        let model = try await JourneyPageModel.load(source, input)
        try await auditLog.appendLook(
            .shownUsers(model.shownUsers, in: "the dry run", of: .journey(model.journey.id), context),
            showing: model.shownUsers)
        return HTMLPage(JourneyPageView(model: model, viewer: context.viewer), status: status)
    }

    func refused(
        _ form: JourneyForm, _ problems: [String], fields: [String: String] = [:], status: HTTPResponse.Status,
        editing: Int64?,
        _ context: StaffRequestContext
    ) -> Response {
        let model = JourneyFormModel(
            form: form, problems: problems, problemFields: fields, library: templates, templateProblem: templateProblem,
            editing: editing)
        return HTMLPage(JourneyFormView(model: model, viewer: context.viewer), status: status).response()
    }

    static func notDraft(_ journey: JourneyRecord) -> String {
        "Only a draft can be edited: this journey is \(journey.status?.rawValue ?? journey.campaign.status.storedText)."
    }

    func actor(_ context: StaffRequestContext) -> AuditActor {
        .staff(context.identity, from: context.clientAddress)
    }

    func journeyID(_ context: StaffRequestContext) throws -> Int64 {
        guard let id = context.parameters.get("id", as: Int64.self), id > 0 else { throw HTTPError(.notFound) }
        return id
    }
}
