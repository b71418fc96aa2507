/// An attribute. Names come only from string literals (`StaticString`), so a name can never
/// carry user input; values are escaped on output, and URL values are checked for scheme.
public struct Attribute: Sendable {
    let name: String
    /// nil renders a boolean attribute (`required`, `disabled`).
    let value: String?

    public init(_ name: StaticString, _ value: String) {
        self.name = name.description
        self.value = value
    }

    init(boolean name: StaticString) {
        self.name = name.description
        self.value = nil
    }

    /// A URL-valued attribute; `javascript:`, `data:` and other unexpected schemes render as `#`.
    public init(url name: StaticString, _ value: String) {
        self.name = name.description
        self.value = SafeURL.sanitize(value)
    }
}

extension Attribute {
    public static func `class`(_ value: String) -> Attribute { Attribute("class", value) }
    public static func id(_ value: String) -> Attribute { Attribute("id", value) }
    public static func href(_ value: String) -> Attribute { Attribute(url: "href", value) }
    public static func src(_ value: String) -> Attribute { Attribute(url: "src", value) }
    public static func action(_ value: String) -> Attribute { Attribute(url: "action", value) }
    public static func title(_ value: String) -> Attribute { Attribute("title", value) }
    public static func name(_ value: String) -> Attribute { Attribute("name", value) }
    public static func value(_ value: String) -> Attribute { Attribute("value", value) }
    public static func type(_ value: String) -> Attribute { Attribute("type", value) }
    public static func placeholder(_ value: String) -> Attribute { Attribute("placeholder", value) }
    public static func autocomplete(_ value: String) -> Attribute { Attribute("autocomplete", value) }
    public static func `for`(_ value: String) -> Attribute { Attribute("for", value) }
    public static func rel(_ value: String) -> Attribute { Attribute("rel", value) }
    public static func lang(_ value: String) -> Attribute { Attribute("lang", value) }
    public static func charset(_ value: String) -> Attribute { Attribute("charset", value) }
    public static func content(_ value: String) -> Attribute { Attribute("content", value) }
    public static func role(_ value: String) -> Attribute { Attribute("role", value) }
    public static func inputMode(_ value: String) -> Attribute { Attribute("inputmode", value) }
    public static func ariaLabel(_ value: String) -> Attribute { Attribute("aria-label", value) }
    public static func ariaCurrent(_ value: String) -> Attribute { Attribute("aria-current", value) }
    public static func ariaDisabled(_ value: String) -> Attribute { Attribute("aria-disabled", value) }
    public static func datetime(_ value: String) -> Attribute { Attribute("datetime", value) }
    public static func scope(_ value: String) -> Attribute { Attribute("scope", value) }
    public static func maxlength(_ value: Int) -> Attribute { Attribute("maxlength", String(value)) }
    public static func method(_ value: FormMethod) -> Attribute { Attribute("method", value.rawValue) }

    public static let required = Attribute(boolean: "required")
    public static let autofocus = Attribute(boolean: "autofocus")
    public static let disabled = Attribute(boolean: "disabled")
    public static let selected = Attribute(boolean: "selected")
    public static let checked = Attribute(boolean: "checked")
    public static let hidden = Attribute(boolean: "hidden")
    public static let `defer` = Attribute(boolean: "defer")
    /// A `<details>` shown open.
    public static let open = Attribute(boolean: "open")
}

public enum FormMethod: String, Sendable {
    case get, post
}
