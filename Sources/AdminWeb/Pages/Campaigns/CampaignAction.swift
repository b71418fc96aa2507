import AdminDomain
import Foundation

/// What can be done to a campaign once composed; each is a POST to `.campaignAction`.
enum CampaignAction: String, CaseIterable, Sendable {
    case pause, resume, cancel

    var button: String {
        switch self {
        case .pause: "Pause"
        case .resume: "Resume"
        case .cancel: "Cancel the campaign"
        }
    }

    /// The statuses in which the action means something.
    var allowed: Set<CampaignStatus> {
        switch self {
        case .pause: [.sending]
        case .resume: [.paused]
        case .cancel: [.draft, .materialising, .sending, .paused]
        }
    }
}

/// The line a campaign page shows after a redirect: what just happened, and how many.
struct CampaignNotice: Sendable, Equatable {
    enum Kind: String, Sendable {
        case created, launched, paused, resumed, cancelled
        case testSent = "test-sent"
    }

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

    var queryItems: [URLQueryItem] {
        [URLQueryItem(name: "notice", value: kind.rawValue)] + (count.map { [URLQueryItem(name: "count", value: String($0))] } ?? [])
    }

    var sentence: String {
        let count = Format.grouped(self.count ?? 0)
        return switch kind {
        case .created: "Draft saved. Check the audience and the message below, then continue to the confirmation."
        case .launched: "Launched: the audience is being frozen and sending starts at once."
        case .paused: "Paused within a second: \(count) pushes had gone out. Nothing more is sent until you resume."
        case .resumed: "Resumed: sending goes on where it stopped."
        case .cancelled: "Cancelled: \(count) pushes had gone out; nothing more will be sent."
        case .testSent: "Test sent to \(count) device\(self.count == 1 ? "" : "s"); each result is listed below."
        }
    }
}
