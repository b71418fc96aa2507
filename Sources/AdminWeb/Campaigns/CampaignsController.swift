import AdminDomain
import CampaignDispatch
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import ServiceLifecycle

/// Marketing's campaigns: compose, preview, test, confirm, launch, pause, resume, cancel,
/// and watch. Every change is audited by the domain; every look at recipients here.
struct CampaignsController {
    let source: CampaignPageModel.Source
    /// Why there are no templates to choose, when there are none.
    let templateProblem: String?
    let testSend: CampaignTestSend
    /// The live page's stream checks its session again while it runs.
    let sessions: SessionStore
    let auditLog: AuditLog
    let eventStreamLength: Duration
    /// The streams open now, at most a few per session.
    let liveStreams: LiveStreams
    /// Each variant's latest test send, kept for the draft's page.
    let testSendResults: TestSendResults

    func addRoutes(to routes: inout StaffRoutes) {
        routes.get(
            .campaigns(), requires: .manageCampaigns, query: ["before", "after", "sort", "dir", "status", "notice"],
            use: list)
        routes.get(.newCampaign, requires: .manageCampaigns, use: composer)
        routes.post(
            .newCampaign, requires: .manageCampaigns, fields: ComposerForm.fieldNames,
            form: composerRule(editing: false), use: create)
        TestUsersController(testUsers: source.testUsers, auditLog: auditLog).addRoutes(to: &routes)
        routes.get(
            .campaign(id: nil), requires: .manageCampaigns,
            query: CampaignNotice.fieldNames + MessagePreviewChoice.fieldNames, use: show)
        routes.get(.campaignEdit(id: nil), requires: .manageCampaigns, use: editor)
        routes.post(
            .campaignEdit(id: nil), requires: .manageCampaigns, fields: ComposerForm.fieldNames,
            form: composerRule(editing: true), use: saveEdit)
        routes.post(
            .campaignTestSend(id: nil), requires: .manageCampaigns, fields: ["user", "variant"], form: testSendRule,
            use: testSend)
        routes.get(.campaignConfirm(id: nil), requires: .manageCampaigns, query: ["recounted"], use: confirm)
        routes.post(
            .campaignConfirm(id: nil), requires: .manageCampaigns, fields: ["typed_count", "counted_at"],
            form: confirmRule, use: launch)
        for action in CampaignAction.allCases {
            routes.post(.campaignAction(id: nil, action), requires: .manageCampaigns, use: act(action))
            if action.asksFirst {
                routes.get(.campaignAction(id: nil, action), requires: .manageCampaigns, use: ask(action))
            }
        }
        routes.get(.campaignEvents(id: nil), requires: .manageCampaigns, use: events)
        routes.post(
            .campaignWinner(id: nil), requires: .manageCampaigns, fields: ["variant", "confirm"], use: chooseWinner)
        routes.get(.campaignReport(id: nil), requires: .manageCampaigns, use: reportCSV)
    }

    @Sendable func list(request: Request, context: StaffRequestContext) async throws -> HTMLPage {
        let parameters = request.queryFields
        func cursor(_ name: String) throws -> Int64? {
            guard let text = parameters[name] else { return nil }
            guard let value = Int64(text) else {
                throw PanelError(status: .badRequest, sentence: "That page link is broken: go back to the first page.")
            }
            return value
        }
        let before = try cursor("before")
        let after = try cursor("after")
        if before != nil, after != nil {
            throw PanelError(status: .badRequest, sentence: "That page link is broken: go back to the first page.")
        }
        // An order the list does not offer is refused, never read as the default order.
        if let sort = parameters["sort"], !CampaignListModel.sortKeys.contains(sort) {
            throw PanelError(
                status: .badRequest,
                sentence: "The campaign list cannot be sorted by “\(sort.prefix(60))”: it sorts by created only.")
        }
        let order = try SortOrder(query: parameters, default: .descending)
        var status: CampaignShownStatus?
        if let text = parameters["status"], !text.isEmpty {
            guard let value = CampaignShownStatus(rawValue: text) else {
                // The page with its filter links and the sentence, and no campaign listed.
                let model = CampaignListModel(
                    entries: [], nextAfter: nil, status: nil,
                    problem: "There is no campaign status “\(text.prefix(60))”: choose one of the links above.")
                return HTMLPage(CampaignListView(model: model, viewer: context.viewer), status: .badRequest)
            }
            status = value
        }
        var model = try await CampaignListModel.load(
            source.campaigns, .init(before: before, status: status, after: after, order: order))
        model.consentWindow = source.consentWindow
        if parameters["notice"] == "deleted" { model.notice = "The draft was deleted." }
        return HTMLPage(CampaignListView(model: model, viewer: context.viewer))
    }

    @Sendable func composer(request: Request, context: StaffRequestContext) async throws -> HTMLPage {
        HTMLPage(
            ComposerView(
                model: ComposerModel(library: source.templates, templateProblem: templateProblem),
                viewer: context.viewer))
    }

    @Sendable func create(request: Request, context: StaffRequestContext) async throws -> Response {
        let form = ComposerForm(form: try await request.formFields())
        let result = form.read(templates: source.templates, now: Date())
        guard let draft = result.draft else {
            let model = ComposerModel(
                form: form, problems: result.problems, problemFields: result.problemFields, library: source.templates,
                templateProblem: templateProblem)
            return HTMLPage(ComposerView(model: model, viewer: context.viewer), status: .badRequest).response()
        }
        let id: Int64
        do {
            id = try await source.campaigns.create(draft, by: actor(context))
        } catch let error as CampaignError {
            let model = ComposerModel(
                form: form, problems: ["Not saved: \(error.description)."], library: source.templates,
                templateProblem: templateProblem)
            return HTMLPage(ComposerView(model: model, viewer: context.viewer), status: .badRequest).response()
        }
        return .redirect(to: SiteURL.campaign(id: id, notice: CampaignNotice(.created)).href, type: .normal)
    }

    @Sendable func show(request: Request, context: StaffRequestContext) async throws -> HTMLPage {
        let id = try campaignID(context)
        var query: [String: String] = [:]
        for name in CampaignNotice.fieldNames { query[name] = request.queryFields[name] }
        let choice = MessagePreviewChoice(request: request)
        return try await page(context, .init(id: id, notice: CampaignNotice(query: query), choice: choice))
    }

    @Sendable func editor(request: Request, context: StaffRequestContext) async throws -> Response {
        let id = try campaignID(context)
        guard let campaign = try await source.campaigns.find(id) else {
            throw PanelError.notFound("No campaign #\(id).")
        }
        guard campaign.status.known == .draft else {
            return try await page(
                context,
                .init(
                    id: id,
                    problems: [
                        "Only a draft can be edited: this campaign is \(campaign.status). Duplicate it to change it."
                    ]),
                status: .conflict
            ).response()
        }
        let model = ComposerModel(
            form: ComposerForm(campaign: campaign), library: source.templates, templateProblem: templateProblem,
            editing: id)
        return HTMLPage(ComposerView(model: model, viewer: context.viewer)).response()
    }

    @Sendable func saveEdit(request: Request, context: StaffRequestContext) async throws -> Response {
        let id = try campaignID(context)
        let form = ComposerForm(form: try await request.formFields())
        let result = form.read(templates: source.templates, now: Date())
        guard let draft = result.draft else {
            let model = ComposerModel(
                form: form, problems: result.problems, problemFields: result.problemFields, library: source.templates,
                templateProblem: templateProblem, editing: id)
            return HTMLPage(ComposerView(model: model, viewer: context.viewer), status: .badRequest).response()
        }
        do {
            try await source.campaigns.edit(id, to: draft, by: actor(context))
        } catch let error as CampaignError {
            let model = ComposerModel(
                form: form, problems: ["Not saved: \(error.description)."], library: source.templates,
                templateProblem: templateProblem, editing: id)
            return HTMLPage(ComposerView(model: model, viewer: context.viewer), status: .conflict).response()
        }
        await source.previews.forget(id)
        return .redirect(to: SiteURL.campaign(id: id, notice: CampaignNotice(.edited)).href, type: .normal)
    }

    /// The page that asks before a cancel or a delete.
    func ask(_ action: CampaignAction) -> @Sendable (Request, StaffRequestContext) async throws -> Response {
        { [source] _, context in
            let id = try campaignID(context)
            guard let campaign = try await source.campaigns.find(id) else {
                throw PanelError.notFound("No campaign #\(id).")
            }
            guard campaign.status.known.map(action.allowed.contains) == true else {
                let sentence =
                    action == .delete
                    ? "Only a draft can be deleted: this campaign is \(campaign.status)."
                    : "Only a campaign being prepared, sent or paused can be cancelled: this one is \(campaign.status)."
                return try await page(context, .init(id: id, problems: [sentence]), status: .conflict).response()
            }
            let progress = action == .cancel ? try await source.campaigns.progress(id) : nil
            return HTMLPage(
                CampaignAskView(campaign: campaign, action: action, progress: progress, viewer: context.viewer)
            ).response()
        }
    }

    @Sendable func testSend(request: Request, context: StaffRequestContext) async throws -> Response {
        let id = try campaignID(context)
        let form = try await request.formFields()
        let typed = (form["user"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let typedVariant = String((form["variant"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines).prefix(40))
        guard let campaign = try await source.campaigns.find(id) else {
            throw PanelError.notFound("No campaign #\(id).")
        }
        guard let userID = Int64(typed), userID > 0 else {
            return try await page(
                context, .init(id: id, problems: ["Choose a test user to send the test to. Nothing was sent."]),
                status: .badRequest
            ).response()
        }
        // The campaign's own message unless another of its variants is chosen; a letter it does not have is refused.
        let letters = campaign.experiment.letters
        guard let variant = typedVariant.isEmpty ? .a : letters.first(where: { $0.letter == typedVariant }) else {
            let sentence =
                "There is no variant “\(typedVariant)” in this campaign: "
                + "choose one of \(letters.map(\.letter).joined(separator: ", ")). Nothing was sent."
            return try await page(context, .init(id: id, problems: [sentence], testedUser: userID), status: .badRequest)
                .response()
        }
        do {
            let lines = try await testSend.send(campaign, variant: variant, toUser: userID, by: actor(context))
            await testSendResults.keep(lines, variant: variant, campaign: id, session: context.sessionToken)
            return try await page(
                context,
                .init(
                    id: id, notice: CampaignNotice(.testSent, count: lines.count), testLines: lines, testedUser: userID,
                    testedVariant: variant)
            ).response()
        } catch let error as CampaignError {
            return try await page(
                context,
                .init(
                    id: id, problems: ["Nothing was sent: \(error.description)."], testedUser: userID,
                    testedVariant: variant),
                status: error.isRateLimit ? .tooManyRequests : .badRequest
            ).response()
        }
    }

    @Sendable func confirm(request: Request, context: StaffRequestContext) async throws -> Response {
        let id = try campaignID(context)
        // After a launch refused for its old count: the fixed sentence, never the link's text.
        let refused = request.queryFields["recounted"] != nil
        let recounting =
            "Not launched: another campaign was launched after the count you confirmed. The audience is counted again; "
            + "confirm the new number. Nothing was sent."
        guard var model = try await CampaignConfirmModel.load(source, id: id) else {
            // Still counting: the draft page with its progress, refreshing itself here until
            // the count is there. Launched already: its own page.
            if try await source.campaigns.find(id)?.status.known == .draft {
                return try await page(context, .init(id: id, problems: refused ? [recounting] : [])).response()
            }
            return .redirect(to: SiteURL.campaign(id: id).href, type: .normal)
        }
        if refused {
            model.notice =
                "This is a new count: another campaign was launched after the count you confirmed. "
                + "Nothing was sent yet."
        }
        if let reason = model.staleReason() {
            // A count older than the latest launch is never shown for confirming: counted again.
            guard let fresh = try await recount(model, context) else {
                let sentence =
                    "Counting the audience again: \(reason). The confirmation shows the new count when it is done."
                return try await page(context, .init(id: id, problems: [sentence])).response()
            }
            model = fresh
            model.notice = "Counted again just now: \(reason)."
        }
        return HTMLPage(CampaignConfirmView(model: model, viewer: context.viewer)).response()
    }

    /// The confirmation with a count made from now, when it is done within a moment (a small
    /// audience), else nil: the draft page shows the counting until it is.
    private func recount(_ model: CampaignConfirmModel, _ context: StaffRequestContext) async throws
        -> CampaignConfirmModel?
    {
        _ = await source.previews.recount(model.campaign, requestedBy: context.identity.email)
        let previews = source.previews
        guard let (preview, at) = await previews.waitReady(model.campaign.id, within: previews.recountWait) else {
            return nil
        }
        var fresh = model.counted(preview, at: at)
        fresh.latestLaunch = try await source.campaigns.latestLaunch()
        return fresh
    }

    @Sendable func launch(request: Request, context: StaffRequestContext) async throws -> Response {
        let id = try campaignID(context)
        guard var model = try await CampaignConfirmModel.load(source, id: id) else {
            return .redirect(to: SiteURL.campaign(id: id).href, type: .normal)
        }
        let form = try await request.formFields()
        let typed = String((form["typed_count"] ?? "").prefix(40))
        // The count the sender saw must be the one launched from, and no launch may have come
        // after it: otherwise the confirmation again, with the new count.
        guard form["counted_at"] == model.countStamp else {
            model.problem =
                form["counted_at"] == nil
                ? "Not launched: the form did not say which count it confirms. "
                    + "Check the number on this page and confirm again. Nothing was sent."
                : "Not launched: the audience was counted again since the page you confirmed. "
                    + "Check the new number and confirm again. Nothing was sent."
            return HTMLPage(CampaignConfirmView(model: model, viewer: context.viewer), status: .conflict).response()
        }
        if let reason = model.staleReason() {
            guard var fresh = try await recount(model, context) else {
                return .redirect(to: SiteURL.campaignConfirm(id: id, recounted: true).href, type: .normal)
            }
            fresh.problem =
                "Not launched: \(reason). The audience was counted again: check the new number and confirm again. "
                + "Nothing was sent."
            return HTMLPage(CampaignConfirmView(model: fresh, viewer: context.viewer), status: .conflict).response()
        }
        guard !model.plannedTimeHasPassed() else {
            model.problem = "Not launched: the planned time has passed."
            return HTMLPage(CampaignConfirmView(model: model, viewer: context.viewer), status: .conflict).response()
        }
        guard model.typedMatches(typed) else {
            model.typed = typed
            model.problem =
                "Type the number of devices to send to, \(Format.grouped(model.devicesToSend)), to send. "
                + "Nothing was sent."
            return HTMLPage(CampaignConfirmView(model: model, viewer: context.viewer), status: .badRequest).response()
        }
        do {
            try await source.campaigns.begin(
                id, schedule: model.campaign.schedule, by: actor(context),
                confirmed: .init(devices: model.devicesToSend, heldOutUsers: model.preview.heldOutUsers))
        } catch let error as CampaignError {
            return try await page(
                context, .init(id: id, problems: ["Not launched: \(error.description)."]), status: .conflict
            ).response()
        }
        await source.previews.forget(id)
        // The dispatcher service freezes the audience from here; a stop meanwhile is taken
        // up at the next start.
        return .redirect(to: SiteURL.campaign(id: id, notice: CampaignNotice(.launched)).href, type: .normal)
    }

    func act(_ action: CampaignAction) -> @Sendable (Request, StaffRequestContext) async throws -> Response {
        { [source] _, context in
            let id = try campaignID(context)
            let actor = AuditActor.staff(context.identity, from: context.clientAddress)
            var notice: CampaignNotice
            do {
                switch action {
                case .pause:
                    try await source.campaigns.pause(id, by: actor)
                    notice = CampaignNotice(.paused)
                case .resume:
                    try await source.campaigns.resume(id, by: actor)
                    notice = CampaignNotice(.resumed)
                case .cancel:
                    _ = try await source.campaigns.cancel(id, by: actor)
                    notice = CampaignNotice(.cancelled)
                case .duplicate:
                    let copy = try await source.campaigns.duplicate(id, by: actor)
                    return .redirect(
                        to: SiteURL.campaign(id: copy, notice: CampaignNotice(.duplicated)).href, type: .normal)
                case .delete:
                    try await source.campaigns.delete(id, by: actor)
                    await source.previews.forget(id)
                    return .redirect(to: SiteURL.campaigns(deleted: true).href, type: .normal)
                }
            } catch let error as CampaignError {
                return try await page(
                    context, .init(id: id, problems: ["Nothing changed: \(error.description)."]), status: .conflict
                ).response()
            }
            await source.progress.forget(id)
            if action == .pause || action == .cancel {
                // Sends already in flight finish within a second; what went out is counted after.
                notice.count = try await source.campaigns.progressWithoutSendsInFlight(id, within: .milliseconds(1_500))
                    .sent
            }
            return .redirect(to: SiteURL.campaign(id: id, notice: notice).href, type: .normal)
        }
    }

    /// Server-sent events: the counts whenever they change. The stream waits on the shared
    /// reader, which reads once per burst of the campaign's published changes for every page
    /// that watches it (`CampaignProgressCache`), and on a half-second tick for the session
    /// check. The id is the counts' digest, so a browser that comes back with
    /// `Last-Event-ID` gets nothing until something changed. A stream lasts a minute and the
    /// browser reconnects by itself, reading afresh: that also brings a page up to date after
    /// a change nobody published (a crash's recovery at start, another process). It does not
    /// end when the campaign does: receipts keep coming after that.
    @Sendable func events(request: Request, context: StaffRequestContext) async throws -> Response {
        let id = try campaignID(context)
        guard try await source.campaigns.find(id) != nil else { throw PanelError.notFound("No campaign #\(id).") }
        let lastSeen = request.headers[HTTPField.Name("Last-Event-ID")!].map { String($0.prefix(40)) }
        let cache = source.progress
        let length = eventStreamLength
        let sessions = sessions
        let token = context.sessionToken
        // A few per session: one more is refused, with how long until a stream's minute is up.
        let streams = liveStreams
        guard let lease = await streams.take(session: token, for: length) else {
            var refused = ErrorView(
                status: .tooManyRequests, requestID: context.id, viewer: context.viewer,
                specific: "This session already has \(LiveStreams.perSession) live pages open, the most it may: "
                    + "close one of them, or wait a minute, and this page reconnects by itself."
            ).response()
            refused.headers[.retryAfter] = String(max(1, length.components.seconds))
            return refused
        }
        let encoder = JSONEncoder()
        // Sorted, so that the same state always has the same digest.
        encoder.outputFormatting = .sortedKeys
        @Sendable func stream(_ writer: inout any ResponseBodyWriter) async throws {
            var last = lastSeen
            var quietSince = ContinuousClock.now
            let deadline = ContinuousClock.now + length
            try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
            func send(_ progress: CampaignProgress) async throws {
                let data = String(decoding: try encoder.encode(progress), as: UTF8.self)
                let eventID = CampaignEvents.digest(data)
                if eventID != last {
                    try await writer.write(ByteBuffer(string: "id: \(eventID)\ndata: \(data)\n\n"))
                    last = eventID
                    quietSince = ContinuousClock.now
                } else if ContinuousClock.now - quietSince > .seconds(15) {
                    try await writer.write(ByteBuffer(string: ": still here\n\n"))
                    quietSince = ContinuousClock.now
                }
            }
            // One stream of wakes, newest only, so that a slow client never grows a buffer:
            // the reader's "counts read" and a tick for the session check and the deadline.
            // A failed read ends it; the browser reconnects.
            let (wakes, wake) = await cache.watch(id)
            // The counts now, read after the subscription (shared with pages that open at the
            // same time), sent at once as the request's own access was just checked; the feed
            // brings every change after it.
            try await send(try await cache.progress(id))
            try await withGracefulShutdownHandler {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        // The end of the stream at its deadline, at a failed check, or at any error.
                        defer { wake.finish() }
                        while ContinuousClock.now < deadline {
                            try await Task.sleep(
                                until: min(deadline, ContinuousClock.now + .milliseconds(500)), clock: .continuous)
                            // A sign-out, a disabled account or a role without campaigns ends the
                            // stream within a second, not at the end of its minute (an indexed read,
                            // here rather than in the loop below: one task switch less on a busy
                            // machine between the check and the end).
                            guard try await sessions.stillAllows(token: token, .manageCampaigns) else { return }
                            wake.yield()
                        }
                    }
                    for await _ in wakes {
                        if let progress = await cache.latest(id) { try await send(progress) }
                        // Another page of this session waits for a place: a write finds out
                        // whether this page is still read (if not, it fails and ends the stream).
                        if await streams.wantsWrite(lease) {
                            try await writer.write(ByteBuffer(string: ": still here\n\n"))
                            quietSince = ContinuousClock.now
                        }
                    }
                    group.cancelAll()
                }
            } onGracefulShutdown: {
                wake.finish()
            }
            try await writer.finish(nil)
        }
        let body = ResponseBody { writer in
            // The place is given back however the stream ends (a lease left behind lapses by itself).
            do {
                try await stream(&writer)
            } catch {
                await streams.close(lease)
                throw error
            }
            await streams.close(lease)
        }
        return Response(
            status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"], body: body)
    }

    func page(_ context: StaffRequestContext, _ input: CampaignPageModel.Input, status: HTTPResponse.Status = .ok)
        async throws -> HTMLPage
    {
        var input = input
        input.viewerEmail = context.identity.email
        // The other variants' test sends this session made stay on the page beside this one's.
        let shownVariant = input.testLines.isEmpty ? nil : input.testedVariant ?? .a
        input.otherTests = await testSendResults.results(campaign: input.id, session: context.sessionToken)
            .filter { $0.variant != shownVariant }.map { ($0.variant, $0.lines) }
        let model = try await CampaignPageModel.load(source, input)
        // The users the page shows (the sample table, the filled message): one row, each
        // user listed beside it, so that a search of the log by `user:N` still finds the look.
        var shown: [Int64] = []
        if case .ready(let preview, _)? = model.preview { shown = preview.samples.map(\.userID) }
        for id in model.shownUsers where !shown.contains(id) { shown.append(id) }
        try await auditLog.appendLook(
            .shownUsers(shown, in: "the preview", of: .campaign(model.campaign.id), context), showing: shown)
        // A preview choice the page does not offer was refused with its sentence on the page.
        return HTMLPage(
            CampaignPageView(model: model, viewer: context.viewer),
            status: status == .ok && model.choiceRefused ? .badRequest : status)
    }

    func actor(_ context: StaffRequestContext) -> AuditActor {
        .staff(context.identity, from: context.clientAddress)
    }

    func campaignID(_ context: StaffRequestContext) throws -> Int64 {
        guard let id = context.parameters.get("id", as: Int64.self), id > 0 else { throw HTTPError(.notFound) }
        return id
    }
}

/// The event id of a state: a short digest of its JSON.
enum CampaignEvents {
    static func digest(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
