import AdminDomain
import HTMLRender

/// A few recipients by user id, each a link to the user for staff who may see profiles: the
/// audience preview's and the journey dry run's.
struct SampleRecipientsTable: HTMLComponent {
    let caption: String
    let samples: [SampleRecipient]
    let viewer: Viewer

    var content: HTMLNode {
        DataTable(
            caption: caption,
            headings: ["User", "Platform", "Locale", "Timezone"],
            rows: samples.map { sample in
                TableRow([
                    TableCell {
                        if viewer.identity.role.may(.viewUserProfiles) {
                            a(.href(SiteURL.user(id: sample.userID).href)) { "#\(sample.userID)" }
                        } else {
                            "#\(sample.userID)"
                        }
                    },
                    TableCell(sample.platform), TableCell(sample.locale), TableCell(sample.timeZone),
                ])
            }
        ).content
    }
}
