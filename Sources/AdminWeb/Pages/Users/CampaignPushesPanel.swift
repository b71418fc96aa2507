import AdminDomain
import CampaignDispatch
import HTMLRender

/// The campaign pushes a user's devices were sent, the text each had for this user, and
/// what their app confirmed.
struct CampaignPushesPanel: HTMLComponent {
    let pushes: [CampaignPushOfUser]
    let texts: [Int64: CampaignTexts.Filled]
    let campaignLinks: Bool
    /// Campaigns of the last 30 days that held this user out on purpose.
    var heldOut: [Reachability.HeldOut] = []
    /// Since when the user has been in the global control group, when they are now.
    var globalControl: GlobalControl.Membership?

    /// A push still waiting says when it goes out.
    static func state(_ push: CampaignPushOfUser) -> TableCell {
        TableCell {
            StatusBadge(push.state)
            if push.state.known == .queued, let due = push.dueAt { " due \(due) UTC" }
        }
    }

    var content: HTMLNode {
        section(.class("panel"), .id(ProfileSection.campaignPushes.rawValue)) {
            h2 { "Campaign pushes" }
            if let globalControl {
                p(.class("notice"), .role("note"), .id("global-control")) {
                    "In the global control group since \(globalControl.since.text) UTC: gets no campaign or journey "
                        + "push (the group is \(globalControl.percent)% of users, drawn by user id, to compare "
                        + "the whole program of pushes with people who get none). Reminders still reach them."
                }
            }
            for held in heldOut {
                p(.class("notice"), .role("note")) {
                    "Held out on purpose from campaign #\(held.campaignID) "
                    UserText(text: "“\(held.campaignName)”")
                    " (launched \(held.launchedAt) UTC): its holdout group gets no push, so that the campaign's effect "
                        + "can be measured."
                }
            }
            if pushes.isEmpty {
                p(.class("muted")) {
                    heldOut.isEmpty
                        ? "No campaign push was sent to this user's devices."
                        : "No other campaign push was sent to this user's devices."
                }
            } else {
                DataTable(
                    caption:
                        "The latest \(pushes.count), newest first; received and opened come from the app's receipts",
                    headings: ["Campaign", "Text", "Device", "Delivery", "App says", "Updated (UTC)"],
                    rows: pushes.map { push in
                        TableRow([
                            TableCell {
                                if campaignLinks {
                                    // A journey's push links to the journey: a campaign's page does not show one.
                                    a(
                                        .href(
                                            (push.isJourney
                                                ? SiteURL.journey(id: push.campaignID)
                                                : SiteURL.campaign(id: push.campaignID)).href)
                                    ) {
                                        push.isJourney ? "Journey #\(push.campaignID) " : "#\(push.campaignID) "
                                        UserText(text: push.campaignName)
                                    }
                                } else {
                                    "#\(push.campaignID) "
                                    UserText(text: push.campaignName)
                                }
                            },
                            TableCell { PushText(push: push, filled: texts[push.deliveryID]) },
                            TableCell("#\(push.deviceID)"), Self.state(push),
                            TableCell { StatusBadge(ReceiptState(push)) },
                            TableCell(push.updatedAt.text),
                        ])
                    })
                if texts.values.contains(where: \.isPersonal) {
                    p(.class("muted")) {
                        "Texts marked “rebuilt” use placeholders. The values a push was filled with are not kept: they "
                        "are filled again from this user's name, plan and language as they are now, and their items as "
                        "they stand now counted from the push's day. An item added, used up or deleted since, or a new "
                        "name or language, makes the text differ from what was sent."
                    }
                }
            }
        }
    }
}

/// One push's title and body, and how sure the page is of them.
private struct PushText: HTMLComponent {
    let push: CampaignPushOfUser
    let filled: CampaignTexts.Filled?

    var content: HTMLNode {
        guard let filled else {
            // The sender does the same: a campaign whose text no longer reads goes out as stored.
            return div {
                strong { UserText(text: push.title) }
                " "
                UserText(text: push.body)
                p(.class("muted")) {
                    if let template = push.template {
                        "As stored: its template “\(template)” no longer exists, so this is what the sender uses."
                    } else {
                        "As stored: its text no longer reads as a template, so this is what the sender uses."
                    }
                }
            }
        }
        return div {
            strong { UserText(text: filled.title) }
            " "
            UserText(text: filled.body)
            if filled.isPersonal {
                " "
                span(.class("muted")) { "(rebuilt)" }
            }
        }
    }
}
