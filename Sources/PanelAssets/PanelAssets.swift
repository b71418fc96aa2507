import Foundation

/// The panel's CSS, scripts and images (`Public/`), shipped inside the build as a resource
/// bundle so that `admin-panel` serves them from any working directory.
public enum PanelAssets {
    /// The folder that holds them, beside the executable.
    public static var directory: String? {
        Bundle.module.url(forResource: "Public", withExtension: nil)?.path
    }
}
