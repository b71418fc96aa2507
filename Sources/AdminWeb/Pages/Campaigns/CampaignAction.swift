import AdminDomain
import Foundation

/// What can be done to a campaign; each is a POST to `.campaignAction`. Those that cannot be
/// taken back ask first on a page of their own (a GET of the same URL).
enum CampaignAction: String, CaseIterable, Sendable {
    case pause, resume, cancel, duplicate, delete

    var button: String {
        switch self {
        case .pause: "Pause"
        case .resume: "Resume"
        case .cancel: "Cancel the campaign…"
        case .duplicate: "Duplicate as a new draft"
        case .delete: "Delete the draft…"
        }
    }

    /// Cancel and delete cannot be undone: their button leads to a page that asks.
    var asksFirst: Bool { self == .cancel || self == .delete }

    /// The statuses in which the action means something: the same table the domain's
    /// transitions say, so a button is never offered for a move the domain refuses.
    var allowed: Set<CampaignStatus> {
        switch self {
        case .pause: CampaignTransition.pause.from
        case .resume: CampaignTransition.resume.from
        case .cancel: CampaignTransition.cancel.from
        case .duplicate: Set(CampaignStatus.allCases)
        case .delete: [.draft]
        }
    }

    /// Whether its button belongs on the page of a campaign in `status` at all: live updates
    /// show and hide pause, resume and cancel as the status moves, but a draft never shows
    /// them and an ended campaign never shows them again.
    func belongs(to status: CampaignStatus?) -> Bool {
        guard let status else { return self == .duplicate }
        switch self {
        case .pause, .resume, .cancel: return [.materialising, .sending, .paused].contains(status)
        case .duplicate: return true
        case .delete: return status == .draft
        }
    }
}

/// The line a campaign page shows after a redirect: what just happened, and how many.
struct CampaignNotice: Sendable, Equatable {
    enum Kind: String, Sendable {
        case created, launched, paused, resumed, cancelled, edited, duplicated
        case testSent = "test-sent"
    }

    /// The query fields a notice is written in.
    static let fieldNames = ["notice", "count"]

    let kind: Kind
    var count: Int?

    init(_ kind: Kind, count: Int? = nil) {
        self.kind = kind
        self.count = count
    }

    init?(query: [String: String]) {
        guard let kind = query["notice"].flatMap(Kind.init(rawValue:)) else { return nil }
        self.kind = kind
        count = query["count"].flatMap { Int($0) }.map { max(0, $0) }
    }

    /// A notice comes from the link a redirect made; one that does not fit the campaign's
    /// status now (a "cancelled" typed onto a draft's link) is not shown.
    func fits(_ status: CampaignStatus?) -> Bool {
        switch kind {
        case .created, .edited, .duplicated: status == .draft
        case .launched: status != .draft
        case .resumed: status == .sending || status == .finished
        case .paused: status == .paused
        case .cancelled: status == .cancelled
        case .testSent: true
        }
    }

    var queryItems: [URLQueryItem] {
        [URLQueryItem(name: "notice", value: kind.rawValue)]
            + (count.map { [URLQueryItem(name: "count", value: String($0))] } ?? [])
    }

    var sentence: String {
        let count = Format.grouped(self.count ?? 0)
        return switch kind {
        case .created: "Draft saved. Check the audience and the message below, then continue to the confirmation."
        case .launched:
            "Launched. Its audience is frozen first, then sending starts; the status and counts below follow it live."
        case .paused:
            "Paused within a second: \(count) push\(self.count == 1 ? " had" : "es had") gone out. Nothing more is "
                + "sent until you resume."
        case .resumed: "Resumed: sending goes on where it stopped."
        case .cancelled:
            "Cancelled: \(count) push\(self.count == 1 ? " had" : "es had") gone out; nothing more will be sent."
        case .testSent: "Test sent to \(count) device\(self.count == 1 ? "" : "s"); each result is listed below."
        case .edited: "Draft saved. Check the audience and the message below again."
        case .duplicated: "This is a new draft, a copy. Edit it, check the audience, then continue to the confirmation."
        }
    }
}
