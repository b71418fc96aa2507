import AdminDomain
import Foundation
import Hummingbird

/// Support's user pages: search, suggestions, profile, activity log. Every look is audited.
struct UsersController {
    let directory: UserDirectory
    let profiles: UserProfileModel.Source
    let items: UserItems
    let activity: UserActivityModel.Source
    let reminders: UserReminders
    let audit: StaffAudit

    func addRoutes(to routes: inout StaffRoutes) {
        routes.get(.users(), requires: .viewUserProfiles, query: UserSearchForm.fieldNames, use: search)
        routes.get(.userSuggestions, requires: .viewUserProfiles, query: ["q"], use: suggestions)
        // The items' fields only to send an old link on to the items page; a sort is read
        // only to be refused there with its own sentence.
        routes.get(
            .user(id: nil), requires: .viewUserProfiles, query: ItemsForm.fieldNames + ["sort", "dir"], use: profile)
        routes.get(
            .userItems(id: nil), requires: .viewUserProfiles, query: ItemsForm.fieldNames + ["sort", "dir"],
            use: userItems)
        routes.get(
            .userActivity(id: nil), requires: .viewUserProfiles, query: ActivityLogForm.fieldNames, use: activity)
        routes.get(
            .userReminders(id: nil), requires: .viewUserProfiles, query: RemindersForm.fieldNames, use: userReminders)
    }

    @Sendable func search(request: Request, context: StaffRequestContext) async throws -> HTMLPage {
        let model = try await UserSearchModel.load(directory, UserSearchForm(request: request))
        // What was searched, as the page says it: recognised text is recorded as what it was read as.
        if let result = model.result {
            let searched =
                result.namesAfterNoEmail
                ? "email, then name"
                : result.lowerCaseRetry != nil ? "email, then lower case" : result.searched.rawValue
            try await audit(context, .userSearched, detail: "\(searched): \(result.text)")
        }
        return HTMLPage(
            UserSearchView(model: model, viewer: context.viewer), status: model.problems.isEmpty ? .ok : .badRequest)
    }

    struct Suggestion: Encodable {
        let id: Int64
        let email: String
        let name: String?
    }

    /// Emails that start with what is typed, as JSON for the search box's list.
    @Sendable func suggestions(request: Request, context: StaffRequestContext) async throws -> Response {
        let typed = String(TypedText.trimmed(request.queryFields["q"] ?? "").prefix(320))
        let users = try await directory.suggestions(prefix: typed)
        if typed.utf8.count >= UserDirectory.suggestionMinimum {
            try await audit(context, .userSearched, detail: "suggestions: \(typed)")
        }
        let body = try JSONEncoder().encode(users.map { Suggestion(id: $0.id, email: $0.email, name: $0.displayName) })
        return Response(
            status: .ok, headers: [.contentType: "application/json", .contentLength: String(body.count)],
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    @Sendable func profile(request: Request, context: StaffRequestContext) async throws -> Response {
        let id = try userID(context)
        // A link from before the items had a page of their own: the same list there.
        if let query = request.uri.query, !query.isEmpty {
            return .redirect(to: SiteURL.userItems(id: id).href + "?" + query, type: .permanent)
        }
        let model = try await UserProfileModel.load(profiles, id)
        try await audit(context, .userViewed, target: "user:\(id)", detail: "profile")
        return HTMLPage(UserProfileView(model: model, viewer: context.viewer)).response()
    }

    @Sendable func userItems(request: Request, context: StaffRequestContext) async throws -> HTMLPage {
        let id = try userID(context)
        // The items list has one order, nearest to today: a sort asked for is refused, never served as another.
        if request.queryFields["sort"] != nil || request.queryFields["dir"] != nil {
            throw PanelError(
                status: .badRequest,
                sentence: "A user's items are listed nearest to today first only: they cannot be sorted another way.")
        }
        let form = ItemsForm(checking: request)
        let model = try await UserItemsModel.load(items, (id, form))
        // A search of their item names is a look at their data too: what was searched is kept.
        try await audit(context, .userViewed, target: "user:\(id)", detail: form.seen)
        return HTMLPage(
            UserItemsView(model: model, viewer: context.viewer), status: model.problems.isEmpty ? .ok : .badRequest)
    }

    @Sendable func activity(request: Request, context: StaffRequestContext) async throws -> HTMLPage {
        let id = try userID(context)
        let model = try await UserActivityModel.load(activity, (id, ActivityLogForm(request: request)))
        try await audit(context, .userActivityViewed, target: "user:\(id)")
        return HTMLPage(
            UserActivityView(model: model, viewer: context.viewer), status: model.problems.isEmpty ? .ok : .badRequest)
    }

    /// A look at the user's reminders is a look at their profile, and is audited as one.
    @Sendable func userReminders(request: Request, context: StaffRequestContext) async throws -> HTMLPage {
        let id = try userID(context)
        let model = try await UserRemindersModel.load(reminders, (id, RemindersForm(request: request), Date()))
        try await audit(context, .userViewed, target: "user:\(id)", detail: "reminders")
        return HTMLPage(
            UserRemindersView(model: model, viewer: context.viewer), status: model.problems.isEmpty ? .ok : .badRequest)
    }

    /// The id in the path; anything but a positive number is a page that does not exist.
    private func userID(_ context: StaffRequestContext) throws -> Int64 {
        guard let id = context.parameters.get("id", as: Int64.self), id > 0 else { throw HTTPError(.notFound) }
        return id
    }
}
