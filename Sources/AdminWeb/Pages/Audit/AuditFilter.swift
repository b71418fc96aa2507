import AdminDomain
import Foundation
import Hummingbird

/// The audit browser's filters as typed in its form: kept as typed so the form shows them
/// again, and turned into an `AuditQuery` only when valid.
public struct AuditFilter: Sendable, Equatable {
    var actor = ""
    var action = ""
    var target = ""
    var from = ""
    var to = ""
    /// The sentence refusing a control character typed in a field: the field is shown with
    /// it as a space, but the list is never filtered by anything but what was typed.
    var controlProblem: String?

    public init() {}

    /// The filter form's fields, as its query string names them.
    static let fieldNames = ["actor", "action", "target", "from", "to"]

    init(action: AuditAction) {
        self.action = action.rawValue
    }

    init(request: Request) {
        let query = request.queryFields
        for (name, label) in [
            ("actor", "Who"), ("action", "Action"), ("target", "Target"), ("from", "From"), ("to", "To"),
        ]
        where controlProblem == nil {
            if let problem = query[name].flatMap({ TypedText.controlProblem(label, in: $0) }) {
                controlProblem = "Nothing was searched: \(problem). Remove it and search again."
            }
        }
        func field(_ name: String) -> String {
            String(TypedText.trimmed(query[name] ?? "").prefix(320))
        }
        actor = field("actor")
        action = field("action")
        target = field("target")
        from = field("from")
        to = field("to")
    }

    var queryItems: [URLQueryItem] {
        [("actor", actor), ("action", action), ("target", target), ("from", from), ("to", to)]
            .filter { !$0.1.isEmpty }
            .map { URLQueryItem(name: $0.0, value: $0.1) }
    }

    /// The query, or the sentence to show when a field is not valid.
    var query: Result<AuditQuery, AuditFilterProblem> {
        if let controlProblem { return .failure(.init(controlProblem)) }
        var query = AuditQuery()
        if !actor.isEmpty { query.actorPrefix = actor }
        if !target.isEmpty { query.target = AuditTarget(stored: target) }
        if !action.isEmpty {
            guard let known = AuditAction(rawValue: action) else {
                return .failure(.init("There is no action “\(action)”."))
            }
            query.action = known
        }
        for (day, label) in [(from, "From"), (to, "To")] where !day.isEmpty {
            guard Day(day) != nil else { return .failure(.init("\(label) must be a date written YYYY-MM-DD.")) }
        }
        if let sentence = DayRange(from: Day(from), to: Day(to)).reversedSentence("The date range") {
            return .failure(.init(sentence))
        }
        query.fromDay = from.isEmpty ? nil : from
        query.toDay = to.isEmpty ? nil : to
        return .success(query)
    }

}

struct AuditFilterProblem: Error {
    let message: String
    init(_ message: String) { self.message = message }

    init(_ refused: TooManyActors) {
        message =
            "More than \(AuditQuery.actorLimit) people's emails start with “\(refused.prefix)”: type more of the email."
    }
}
