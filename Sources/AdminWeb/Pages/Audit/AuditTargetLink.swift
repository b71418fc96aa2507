import AdminDomain
import HTMLRender

/// An audit row's target, named for what it is (`staff:3`, also for rows that stored
/// `admin:3`) and linked to its page when the viewer may open it; anything else is text.
struct AuditTargetLink: HTMLComponent {
    let stored: String?
    let viewer: Viewer

    static func url(_ target: AuditTarget, role: Role) -> SiteURL? {
        switch target {
        case .user(let id) where role.may(.viewUserProfiles): .user(id: id)
        case .campaign(let id) where role.may(.manageCampaigns): .campaign(id: id)
        case .journey(let id) where role.may(.viewDashboard): .journey(id: id)
        case .staff(let id) where role.may(.manageStaff): .staffMember(id: id)
        default: nil
        }
    }

    var content: HTMLNode {
        guard let stored else { return .text("") }
        let target = AuditTarget(stored: stored)
        guard let url = Self.url(target, role: viewer.identity.role) else {
            return UserText(text: target.description).content
        }
        return a(.href(url.href)) { target.description }
    }
}
