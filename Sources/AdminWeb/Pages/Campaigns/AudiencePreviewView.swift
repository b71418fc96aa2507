import AdminDomain
import HTMLRender

/// The audience as counted: reachable users and devices by platform and provider, each
/// reason for leaving someone out, timing, and ten sample recipients.
struct AudiencePreviewView: HTMLComponent {
    let preview: AudiencePreview
    let countedAt: String
    let viewer: Viewer

    var content: HTMLNode {
        let counts = preview.counts
        return div(.class("audience")) {
            p(.class("audience-total")) {
                strong(.id("reachable-devices")) { Format.grouped(counts.reachableDevices) }
                " devices of "
                strong(.id("reachable-users")) { Format.grouped(counts.reachableUsers) }
                " users would get this push."
            }
            p(.class("muted")) { "Counted at \(countedAt) UTC in \(String(format: "%.1f", Double(preview.elapsed.components.seconds) + Double(preview.elapsed.components.attoseconds) / 1e18)) s." }
            div(.class("table-wrap")) {
                table(.class("data")) {
                    caption { "Reachable devices by platform and provider" }
                    thead { tr { th(.scope("col")) { "Platform" }; th(.scope("col")) { "Provider" }; th(.scope("col"), .class("num")) { "Devices" } } }
                    tbody {
                        for (group, count) in counts.devicesByGroup.sorted(by: { ($0.key.platform, $0.key.provider) < ($1.key.platform, $1.key.provider) }) {
                            tr { td { group.platform }; td { group.provider }; td(.class("num")) { Format.grouped(count) } }
                        }
                    }
                }
            }
            div(.class("table-wrap")) {
                table(.class("data"), .id("exclusions")) {
                    caption { "Left out, by the first reason that applies" }
                    thead { tr { th(.scope("col")) { "Reason" }; th(.scope("col"), .class("num")) { "Users" }; th(.scope("col"), .class("num")) { "Devices" } } }
                    tbody {
                        for exclusion in Exclusion.allCases {
                            tr(Attribute("data-reason", exclusion.rawValue)) {
                                td { exclusion.label }
                                td(.class("num")) { Format.grouped(counts.excludedUsers[exclusion] ?? 0) }
                                td(.class("num")) { exclusion == .noDevice ? "–" : Format.grouped(counts.excludedDevices[exclusion] ?? 0) }
                            }
                        }
                    }
                }
            }
            ul(.class("timing")) {
                li { "\(Format.grouped(preview.inQuietHours)) devices are in their owner's quiet hours at the planned time: theirs wait until the quiet hours end." }
                li { "\(Format.grouped(preview.invalidTimeZones)) users have a timezone that is not one: the default is used for them." }
                li { "\(Format.grouped(preview.malformedQuietHours)) users have quiet hours that do not read as HH:MM: counted as none." }
            }
            if !preview.samples.isEmpty {
                div(.class("table-wrap")) {
                    table(.class("data")) {
                        caption { "Ten of the recipients (lowest user ids)" }
                        thead { tr { th(.scope("col")) { "User" }; th(.scope("col")) { "Platform" }; th(.scope("col")) { "Locale" }; th(.scope("col")) { "Timezone" } } }
                        tbody {
                            for sample in preview.samples {
                                tr {
                                    td {
                                        if viewer.identity.role.may(.viewUserProfiles) {
                                            a(.href(SiteURL.user(id: sample.userID).href)) { "#\(sample.userID)" }
                                        } else {
                                            "#\(sample.userID)"
                                        }
                                    }
                                    td { sample.platform }
                                    td { sample.locale }
                                    td { sample.timeZone }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
