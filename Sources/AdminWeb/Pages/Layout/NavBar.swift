import AdminDomain
import HTMLRender

enum NavSection: CaseIterable {
    case dashboard, reminders, users, activity, campaigns, journeys, admins, settings, auditLog

    var label: String {
        switch self {
        case .dashboard: "Dashboard"
        case .reminders: "Reminders"
        case .users: "Users"
        case .activity: "Activity"
        case .campaigns: "Campaigns"
        case .journeys: "Journeys"
        case .admins: "Admins"
        case .settings: "Settings"
        case .auditLog: "Audit log"
        }
    }

    /// nil: the area is not built yet, and the navigation says so instead of linking to nothing.
    var url: SiteURL? {
        switch self {
        case .dashboard: .dashboard
        case .reminders: .reminders()
        case .auditLog: .auditLog()
        case .admins: .staff()
        case .settings: .globalControl()
        case .users: .users()
        case .activity: .activity()
        case .campaigns: .campaigns()
        case .journeys: .journeys()
        }
    }

    /// Shown only to roles that have it; nil: shown to everyone.
    var permission: Permission? {
        switch self {
        case .auditLog: .readAuditLog
        case .admins: .manageStaff
        case .settings: .setGlobalControl
        case .users: .viewUserProfiles
        case .activity: .exportUserLists
        case .campaigns: .manageCampaigns
        default: nil
        }
    }
}

struct NavBar: HTMLComponent {
    let active: NavSection?
    let role: Role

    var content: HTMLNode {
        nav(.ariaLabel("Main")) {
            ul {
                for section in NavSection.allCases where section.permission.map(role.may) ?? true {
                    li {
                        if let url = section.url {
                            if section == active {
                                a(.href(url.href), .ariaCurrent("page")) { section.label }
                            } else {
                                a(.href(url.href)) { section.label }
                            }
                        } else {
                            span(.class("soon"), .ariaDisabled("true"), .title("Not built yet")) {
                                section.label
                                small { " soon" }
                            }
                        }
                    }
                }
            }
        }
    }
}
