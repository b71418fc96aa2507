import Foundation

/// The `admin-panel` binary beside the test bundle: SwiftPM builds both into one folder.
let executable: URL = {
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var folder = bundle.deletingLastPathComponent()
    // On Linux the test runner is the .xctest file itself; elsewhere it sits inside a bundle.
    while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("admin-panel").path), folder.path != "/"
    {
        folder.deleteLastPathComponent()
    }
    return folder.appendingPathComponent("admin-panel")
}()
