import AdminDomain

/// A journey's status buttons, each a POST form on its page, shown only where its status
/// allows it; the domain refuses the rest with a sentence.
enum JourneyAction: String, CaseIterable, Sendable {
    case activate, pause, resume, end, delete

    var allowed: Set<JourneyStatus> {
        switch self {
        case .activate, .delete: [.draft]
        case .pause: [.active]
        case .resume: [.paused]
        case .end: [.active, .paused]
        }
    }

    var label: String {
        switch self {
        case .activate: "Activate"
        case .pause: "Pause"
        case .resume: "Resume"
        case .end: "End for good"
        case .delete: "Delete the draft"
        }
    }

    /// What happened, for the page after.
    var notice: JourneyNotice {
        switch self {
        case .activate: .activated
        case .pause: .paused
        case .resume: .resumed
        case .end: .ended
        case .delete: .deleted
        }
    }
}

/// What just happened, carried by the redirect's link as a fixed word: the page shows its
/// own sentence, never the link's text.
enum JourneyNotice: String, Sendable {
    case created, edited, activated, paused, resumed, ended, deleted

    var sentence: String {
        switch self {
        case .created: "The journey was saved as a draft. Nothing is sent until it is activated."
        case .edited: "The draft was saved."
        case .activated: "The journey is active: users who cross its trigger from now on enter it."
        case .paused: "The journey is paused: nobody enters, and those waiting for their push were exited."
        case .resumed: "The journey is active again: users who cross its trigger from now on enter it."
        case .ended: "The journey has ended for good; its report stays."
        case .deleted: "The draft was deleted."
        }
    }
}
