import Foundation

/// The panel's CSS, scripts and images (`Public/`) and its push message templates
/// (`Templates/`), shipped inside the build as a resource bundle so that `admin-panel`
/// finds them from any working directory.
public enum PanelAssets {
    /// The folder that holds them, beside the executable.
    public static var directory: String? {
        Bundle.module.url(forResource: "Public", withExtension: nil)?.path
    }

    /// The message templates beside the executable.
    public static var templatesDirectory: String? {
        Bundle.module.url(forResource: "Templates", withExtension: nil)?.path
    }
}
