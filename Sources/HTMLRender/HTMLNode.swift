/// One node of an HTML tree. Text and attribute values are stored as given and escaped
/// only when rendered, so no caller can forget to escape them.
public struct HTMLNode: Sendable {
    enum Storage: Sendable {
        case element(name: String, attributes: [Attribute], children: [HTMLNode])
        case void(name: String, attributes: [Attribute])
        case text(String)
        case raw(String)
    }

    let storage: Storage

    init(_ storage: Storage) {
        self.storage = storage
    }

    /// Text content; `& < >` are escaped on output.
    public static func text(_ value: String) -> HTMLNode {
        HTMLNode(.text(value))
    }

    /// The same element with `extra` attributes after its own (a field marked invalid);
    /// text and raw markup have none and come back as they were.
    public func adding(_ extra: [Attribute]) -> HTMLNode {
        switch storage {
        case .element(let name, let attributes, let children):
            HTMLNode(.element(name: name, attributes: attributes + extra, children: children))
        case .void(let name, let attributes): HTMLNode(.void(name: name, attributes: attributes + extra))
        case .text, .raw: self
        }
    }

    /// Markup inserted exactly as given. The name says it: only for trusted, constant
    /// markup (never for anything that came from a user or the database).
    public static func unsafeRawHTML(_ markup: String) -> HTMLNode {
        HTMLNode(.raw(markup))
    }
}

/// Something that renders as HTML: pages and reusable components conform.
public protocol HTMLComponent {
    var content: HTMLNode { get }
}

extension HTMLNode: HTMLComponent {
    public var content: HTMLNode { self }
}
