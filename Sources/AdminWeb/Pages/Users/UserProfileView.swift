import AdminDomain
import Foundation
import HTMLRender

/// One user, everything support needs for a ticket. Times are UTC unless marked local.
struct UserProfileView: HTMLComponent {
    let model: UserProfileModel
    let viewer: Viewer

    var content: HTMLNode {
        let profile = model.profile
        let account = profile.account
        return PageLayout(pageTitle: account.email, viewer: viewer, activeSection: .users) {
            h1 { UserText(text: account.shownName) }
            p(.class("muted")) {
                "User #\(account.id) · "
                UserText(text: account.email)
            }
            nav(.class("section-links"), .ariaLabel("Sections of this profile")) {
                for section in ProfileSection.allCases { a(.href("#\(section.rawValue)")) { section.label } }
            }
            ReachabilityPanel(reachability: model.reachability, userID: account.id)
            AccountPanel(profile: profile)
            ItemsPanel(
                userID: account.id, calendar: profile.calendar, food: profile.food, documents: profile.documents,
                itemsForm: ItemsForm(), filter: model.filter, items: model.items, problems: [])
            DevicesPanel(devices: profile.devices)
            SettingsPanel(settings: profile.settings, usualHour: model.usualHour)
            SubscriptionsPanel(subscriptions: profile.subscriptions, mismatch: profile.hasActiveSubscriptionOnFreePlan)
            RemindersPanel(
                userID: account.id, counts: profile.reminderCounts, reminders: profile.recentReminders,
                zone: UserCalendar.zone(named: account.timezone))
            CampaignPushesPanel(
                pushes: model.campaignPushes, texts: model.pushTexts,
                campaignLinks: viewer.identity.role.may(.manageCampaigns),
                heldOut: profile.evidence.heldOut, globalControl: model.globalControl)
            section(.class("panel"), .id(ProfileSection.activity.rawValue)) {
                h2 { "Recent activity" }
                ActivityTable(events: profile.recentActivity, caption: "The latest \(profile.recentActivity.count)")
                p { a(.href(SiteURL.userActivity(id: account.id).href)) { "The whole activity log" } }
            }
        }.content
    }
}

/// The profile's sections, in page order: the links at the top and the ids they jump to.
enum ProfileSection: String, CaseIterable {
    case account, items, devices, settings, subscriptions, reminders
    case campaignPushes = "campaign-pushes"
    case activity

    var label: String {
        switch self {
        case .campaignPushes: "Campaign pushes"
        default: rawValue.prefix(1).uppercased() + rawValue.dropFirst()
        }
    }
}

private struct AccountPanel: HTMLComponent {
    let profile: UserProfile

    var content: HTMLNode {
        let account = profile.account
        let calendar = profile.calendar
        return section(.class("panel"), .id(ProfileSection.account.rawValue)) {
            h2 { "Account" }
            if !calendar.isValidTimezone {
                p(.class("notice error"), .role("status")) {
                    "The stored timezone “\(account.timezone)” is not a timezone: dates below use UTC."
                }
            }
            dl(.class("facts")) {
                dt { "Email" }
                dd { UserText(text: account.email) }
                dt { "Name" }
                dd { account.displayName.map { UserText(text: $0).content } ?? .text("(none)") }
                dt { "Plan" }
                dd { StatusBadge(account.plan) }
                dt { "Status" }
                dd { StatusBadge(account.status) }
                dt { "Timezone" }
                dd { calendar.isValidTimezone ? account.timezone : "UTC (stored: “\(account.timezone)”)" }
                dt { "Today for them" }
                dd { calendar.todayString }
                dt { "Locale" }
                dd { account.locale }
                dt { "Signed up" }
                dd { Format.stored(time: account.createdAt) }
                dt { "Last active" }
                dd { account.lastActiveAt.map(Format.stored(time:)) ?? "never" }
                dt { "Email verified" }
                dd { account.emailVerifiedAt.map(Format.stored(time:)) ?? "no" }
                dt { "Household" }
                dd {
                    if let household = profile.household {
                        UserText(text: household.name)
                        ul(.class("plain")) {
                            for member in household.members {
                                li {
                                    if member.id == account.id {
                                        UserText(text: member.email)
                                        " (this user)"
                                    } else {
                                        a(.href(SiteURL.user(id: member.id).href)) { UserText(text: member.email) }
                                        if let name = member.displayName {
                                            " · "
                                            UserText(text: name)
                                        }
                                    }
                                }
                            }
                        }
                    } else {
                        "none"
                    }
                }
            }
        }
    }
}

private struct DevicesPanel: HTMLComponent {
    let devices: [UserProfile.Device]

    /// Only a provider's answer to a push the panel sent makes a token known dead.
    static func deadness(_ device: UserProfile.Device) -> TableCell {
        TableCell {
            StatusBadge(TokenState(device))
            if let dead = device.deadToken {
                " since \(dead.recordedAt) ("
                UserText(text: dead.reason)
                ")"
            }
        }
    }

    var content: HTMLNode {
        section(.class("panel"), .id(ProfileSection.devices.rawValue)) {
            h2 { "Devices" }
            DataTable(
                caption: "\(devices.count), most recently seen first",
                headings: [
                    "Platform", "App", "OS", "Push permission", "Push token", "Known dead", "Added", "Last seen",
                ],
                rows: devices.map { device in
                    TableRow([
                        TableCell("\(device.platform.label) (\(device.pushProvider.label))"),
                        TableCell(device.appVersion ?? ""), TableCell(device.osVersion ?? ""),
                        TableCell { StatusBadge(device.pushPermission) }, TableCell(device.maskedToken ?? "none"),
                        Self.deadness(device),
                        TableCell(Format.stored(time: device.createdAt)),
                        TableCell(Format.stored(time: device.lastSeenAt)),
                    ])
                }, empty: "No devices.")
        }
    }
}

private struct SettingsPanel: HTMLComponent {
    let settings: UserProfile.Settings?
    var usualHour: UserUsualHour?

    var content: HTMLNode {
        section(.class("panel"), .id(ProfileSection.settings.rawValue)) {
            h2 { "Notification settings" }
            if let settings {
                dl(.class("facts")) {
                    dt { "Push" }
                    dd { settings.pushEnabled ? "on" : "off" }
                    dt { "Food reminders" }
                    dd { settings.foodReminders ? "on" : "off" }
                    dt { "Document reminders" }
                    dd { settings.documentReminders ? "on" : "off" }
                    dt { "Marketing pushes" }
                    dd { settings.marketingOptIn ? "opted in" : "opted out" }
                    // What does not read is said, with what is stored, as quiet hours are.
                    dt { "Reminder days" }
                    dd {
                        if let days = Reachability.reminderDays(settings.reminderDays) {
                            "\(days.map(String.init).joined(separator: ", ")) days before expiry"
                        } else {
                            "unreadable (stored: “"
                            UserText(text: settings.reminderDays)
                            "”)"
                        }
                    }
                    dt { "Daily time (local)" }
                    dd {
                        if let time = LocalTime(settings.dailyTime) {
                            time.description
                        } else {
                            "unreadable (stored: “"
                            UserText(text: settings.dailyTime)
                            "”)"
                        }
                    }
                    dt { "Quiet hours (local)" }
                    dd { QuietHoursText(quietHours: settings.quietHours) }
                }
            } else {
                p { "No settings saved: the app's defaults apply." }
            }
            if let usualHour {
                // What a push "at each user's usual hour" would aim for, and where that hour came from.
                dl(.class("facts"), .id("usual-hour")) {
                    // Isolated like all user text: it names the platform and locale the app stored.
                    dt { "Usual hour (local)" }
                    dd { UserText(text: usualHour.sentence, clampAfter: .max) }
                }
            }
        }
    }
}

private struct SubscriptionsPanel: HTMLComponent {
    let subscriptions: [UserProfile.Subscription]
    let mismatch: Bool

    var content: HTMLNode {
        section(.class("panel"), .id(ProfileSection.subscriptions.rawValue)) {
            h2 { "Subscriptions" }
            if mismatch {
                p(.class("notice error"), .role("status")) { "An active subscription, but the plan is free." }
            }
            DataTable(
                caption: "Newest first",
                headings: ["Plan", "Status", "Store", "Price", "Started", "Period ends", "Cancelled"],
                rows: subscriptions.map { sub in
                    TableRow([
                        TableCell(sub.planType), TableCell { StatusBadge(sub.status) }, TableCell(sub.store),
                        TableCell(Format.money(cents: sub.priceCents, currency: sub.currency)),
                        TableCell(Format.stored(time: sub.startedAt)),
                        TableCell(Format.stored(time: sub.currentPeriodEnd)),
                        TableCell(sub.cancelledAt.map(Format.stored(time:)) ?? ""),
                    ])
                }, empty: "No subscriptions.")
        }
    }
}

private struct RemindersPanel: HTMLComponent {
    let userID: Int64
    let counts: UserProfile.ReminderCounts
    let reminders: [UserProfile.Reminder]
    /// The user's timezone; nil when the stored name is not one (the account says so, and UTC is used).
    let zone: TimeZone?

    var content: HTMLNode {
        let utc = TimeZone(secondsFromGMT: 0)!
        return section(.class("panel"), .id(ProfileSection.reminders.rawValue)) {
            h2 { "Reminders" }
            ReminderSummary(userID: userID, counts: counts)
            p {
                a(.href(SiteURL.userReminders(id: userID).href)) {
                    "All of this user's reminders, with their local times"
                }
            }
            DataTable(
                caption: "The latest \(reminders.count) by schedule",
                headings: [
                    "Item", "Days before", zone == nil ? "Their time (UTC)" : "Their time", "Scheduled for (UTC)",
                    "Status", "Sent", "Opened",
                ],
                rows: reminders.map { reminder in
                    TableRow([
                        TableCell("\(reminder.itemName ?? "(deleted)") (\(reminder.itemKind))"),
                        TableCell(String(reminder.daysBefore)),
                        TableCell(
                            UserReminders.local(reminder.scheduledFor, in: zone ?? utc)
                                ?? Format.stored(time: reminder.scheduledFor)),
                        TableCell(Format.stored(time: reminder.scheduledFor)),
                        TableCell { StatusBadge(reminder.status) },
                        TableCell(reminder.sentAt.map(Format.stored(time:)) ?? ""),
                        TableCell(reminder.openedAt.map(Format.stored(time:)) ?? ""),
                    ])
                }, empty: "No reminders.")
        }
    }
}

/// Activity events, newest first.
struct ActivityTable: HTMLComponent {
    let events: [ActivityEvent]
    let caption: String

    var content: HTMLNode {
        DataTable(
            caption: caption,
            columns: ["When (UTC)", "What", "Platform", "Detail"].map { DataTable.Column($0) },
            rows: events.map {
                TableRow(
                    [
                        Format.stored(time: $0.createdAt), $0.kind, $0.platform?.description ?? "",
                        String(($0.detail ?? "").prefix(200)),
                    ].map { TableCell($0) })
            },
            empty: "No activity."
        ).content
    }
}
