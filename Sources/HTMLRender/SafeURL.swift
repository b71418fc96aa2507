/// Keeps script-carrying URLs out of `href`, `src` and `action`. Browsers ignore ASCII
/// whitespace and control characters inside a scheme (`java\tscript:`), so those are
/// dropped before the scheme is read.
enum SafeURL {
    /// `otpauth:` hands a two-factor key to the authenticator app on the same phone; like
    /// `mailto:` it opens an app and runs nothing in the page.
    static let allowedSchemes: Set<String> = ["http", "https", "mailto", "otpauth"]

    static func sanitize(_ url: String) -> String {
        var scheme = ""
        for scalar in url.unicodeScalars {
            if scalar.value <= 0x20 || scalar.value == 0x7F { continue }
            if scalar == ":" {
                return allowedSchemes.contains(scheme.lowercased()) ? url : "#"
            }
            // A path, query or fragment before any colon: a relative URL, no scheme.
            if scalar == "/" || scalar == "?" || scalar == "#" { return url }
            scheme.unicodeScalars.append(scalar)
        }
        return url
    }
}
