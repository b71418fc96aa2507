import Foundation
import TestSupport
import Testing

/// A file is named for what it holds: `Type.swift` declares `Type`; `Type+Topic.swift`
/// extends `Type`. A handful of files hold no type of their own, or a catalogue of one-line
/// enums, and are named here with the reason.
@Suite(.timeLimit(.minutes(20))) struct FileNamesFollowTypes {
    static let exceptions: [String: String] = [
        "BuildApplication.swift": "the functions that wire the application",
        "Elements.swift": "the DSL's element functions",
        "Terms.swift": "the app's vocabulary, one-line enums named for its columns",
        "CampaignTerms.swift": "the campaign and delivery statuses, one-line enums",
        "main.swift": "an executable's entry point",
    ]

    @Test func everySourceFileIsNamedForTheTypeItDeclaresOrExtends() throws {
        let sources = TestPaths.repositoryRoot.appendingPathComponent("Sources")
        let files =
            FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        let declaration = try Regex(
            #"(?m)^(?:@\w+(?:\([^)]*\))?\s+)*(?:public |package |internal |private |fileprivate )?(?:final )?"#
                + #"(?:struct|enum|class|actor|protocol|typealias)\s+(\w+)"#
        )
        let extensionLine = try Regex(#"(?m)^(?:public |private |fileprivate )?extension\s+([\w.]+)"#)
        var misnamed: [String] = []
        for file in files where Self.exceptions[file.lastPathComponent] == nil {
            let text = try String(contentsOf: file, encoding: .utf8)
            let name = file.deletingPathExtension().lastPathComponent
            let declared = text.matches(of: declaration).compactMap { $0.output[1].substring.map(String.init) }
            let extended = text.matches(of: extensionLine).compactMap {
                $0.output[1].substring.map { String($0.split(separator: ".")[0]) }
            }
            let named: Bool
            if let plus = name.firstIndex(of: "+") {
                named = extended.contains(String(name[..<plus]))
            } else {
                named = declared.contains(name)
            }
            if !named {
                misnamed.append(
                    "\(file.path.replacingOccurrences(of: sources.path + "/", with: "")) "
                        + "declares \(declared.prefix(4)), extends \(extended.prefix(3))"
                )
            }
        }
        #expect(files.count > 250, "the sources were found")
        #expect(misnamed.isEmpty, "\n\(misnamed.joined(separator: "\n"))")
    }
}
