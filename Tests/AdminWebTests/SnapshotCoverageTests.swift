import Foundation
import TestSupport
import Testing

/// Every view has a snapshot a reviewer can read: for each `*View.swift` under
/// `Sources/AdminWeb/Pages`, a committed `<View>.<state>.html` under
/// `Tests/AdminWebTests/__Snapshots__/` (the name `assertPageSnapshot` gives it), and no
/// snapshot is left over from a view that is gone.
@Suite(.timeLimit(.minutes(20))) struct EveryViewHasASnapshot {
    static let pages = TestPaths.repositoryRoot.appendingPathComponent("Sources/AdminWeb/Pages")
    static let snapshots = TestPaths.repositoryRoot.appendingPathComponent("Tests/AdminWebTests/__Snapshots__")

    static func files(under folder: URL, named suffix: String) -> [URL] {
        (FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? [])
            .filter { $0.lastPathComponent.hasSuffix(suffix) }
    }

    /// "CampaignPageView" for `CampaignPageView.swift`.
    static var views: Set<String> {
        Set(files(under: pages, named: "View.swift").map { $0.deletingPathExtension().lastPathComponent })
    }

    /// The view each snapshot file names: "CampaignPageView" for `CampaignPageView.draftReady.html`.
    static var snapshotted: [String: [String]] {
        Dictionary(grouping: files(under: snapshots, named: ".html")) {
            String($0.lastPathComponent.prefix { $0 != "." })
        }
        .mapValues { $0.map { "\($0.deletingLastPathComponent().lastPathComponent)/\($0.lastPathComponent)" }.sorted() }
    }

    @Test func everyViewHasASnapshotFile() {
        let views = Self.views
        #expect(views.count >= 24, "the views were found under \(Self.pages.path)")
        let without = views.subtracting(Self.snapshotted.keys).sorted()
        #expect(
            without.isEmpty,
            """
            views without a snapshot: \(without.joined(separator: ", ")). Render each from a model made by hand with \
            assertPageSnapshot(of:_:) in a Snapshots*.swift file, run it once to record, and read the file.
            """)
    }

    @Test func everySnapshotNamesAView() {
        let strays = Self.snapshotted.filter { !Self.views.contains($0.key) }.values.flatMap { $0 }.sorted()
        #expect(strays.isEmpty, "snapshots of no view (renamed or deleted?): \(strays.joined(separator: ", "))")
    }
}
