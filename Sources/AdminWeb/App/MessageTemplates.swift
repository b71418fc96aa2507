import Foundation
import PushTemplates

/// The message templates, read once at start and shared by the campaigns, journeys and
/// user pages; `problem` says why there are none.
struct MessageTemplates: Sendable {
    let library: PushTemplateLibrary
    let problem: String?

    init(folder: String) {
        do {
            library = try PushTemplateLibrary(folder: URL(fileURLWithPath: folder, isDirectory: true))
            problem = library.templates.isEmpty ? "There are no templates in \(folder)." : nil
        } catch {
            library = PushTemplateLibrary()
            problem = "The templates in \(folder) cannot be used: \(error.description)."
        }
    }
}
