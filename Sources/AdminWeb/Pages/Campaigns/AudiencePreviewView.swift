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
            if let missing = preview.missingProviders {
                p(.class("notice error"), .role("alert"), .id("missing-providers")) { "Not counted: \(missing)." }
            }
            p(.class("muted")) {
                "Counted at \(countedAt) UTC in \(String(format: "%.1f", Self.seconds(preview.elapsed))) s."
            }
            DataTable(
                caption: "Reachable devices by platform and provider",
                columns: [.init("Platform"), .init("Provider"), .init("Devices", numeric: true)],
                rows: counts.devicesByGroup.sorted {
                    ($0.key.platform, $0.key.provider) < ($1.key.platform, $1.key.provider)
                }
                .map {
                    [
                        Platform.label(of: $0.key.platform), PushProvider.label(of: $0.key.provider),
                        Format.grouped($0.value),
                    ]
                })
            // Users per reason: a user with one device left out and another reachable is in
            // both rows, so the rows do not add up to the segment's users.
            DataTable(
                caption:
                    "Left out, by the first reason that applies to each device (a user with some devices left out is "
                    + "counted in each of their reasons)",
                columns: [.init("Reason"), .init("Users", numeric: true), .init("Devices", numeric: true)],
                rows: Exclusion.allCases.map { exclusion in
                    TableRow(
                        [
                            TableCell(exclusion.label), TableCell(Format.grouped(counts.excludedUsers[exclusion] ?? 0)),
                            TableCell(
                                exclusion == .noDevice ? "–" : Format.grouped(counts.excludedDevices[exclusion] ?? 0)),
                        ],
                        class: "exclusion-\(exclusion.rawValue)")
                })
            ul(.class("timing")) {
                li {
                    preview.inQuietHours == 1
                        ? "1 device is in its owner's quiet hours at the planned time: it waits until the quiet hours "
                            + "end."
                        : "\(Format.grouped(preview.inQuietHours)) devices are in their owner's quiet hours at the "
                            + "planned time: theirs wait until the quiet hours end."
                }
                li {
                    preview.invalidTimeZones == 1
                        ? "1 user has a stored timezone that is not a valid one: the default is used for them."
                        : "\(Format.grouped(preview.invalidTimeZones)) users have a stored timezone that is not a "
                            + "valid one: the default is used for them."
                }
                li {
                    preview.malformedQuietHours == 1
                        ? "1 user has quiet hours that do not read as HH:MM: counted as none."
                        : "\(Format.grouped(preview.malformedQuietHours)) users have quiet hours that do not read as "
                            + "HH:MM: counted as none."
                }
                // The app's schema gives a user without the row its defaults; the panel does too, and says how many.
                li(.id("without-settings")) {
                    "\(Format.count(preview.usersWithoutSettings, "user has", "users have")) no notification settings "
                    "saved: counted with the app's defaults (push on, consent to campaign pushes, no quiet hours)."
                }
                // Only the placeholder groups the message names were counted.
                for group in FallbackGroup.allCases {
                    if let users = preview.fallbackUsers[group] {
                        li(.class("fallbacks")) {
                            "\(Format.grouped(users)) of \(Format.grouped(preview.counts.reachableUsers)) recipients "
                            "would get a fallback for \(Self.placeholders(group, used: preview.placeholdersUsed)) "
                            "(\(Self.why(group)))."
                        }
                    }
                }
            }
            if !preview.samples.isEmpty {
                SampleRecipientsTable(
                    caption: "Ten of the recipients (lowest user ids)", samples: preview.samples, viewer: viewer)
            }
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// "{{name}}, {{first_item}}": the group's placeholders the message uses.
    static func placeholders(_ group: FallbackGroup, used: Set<String>) -> String {
        group.placeholders.filter(used.contains).map { "{{\($0)}}" }.joined(separator: ", ")
    }

    static func why(_ group: FallbackGroup) -> String {
        switch group {
        case .name: "no name"
        case .items: "nothing expiring within \(RecipientValues.expiringWithinDays) days"
        case .documents: "no document expiring within \(RecipientValues.documentsWithinDays) days"
        }
    }
}
