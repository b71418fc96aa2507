extension HTMLNode {
    /// UTF-8 bytes of this node and its children.
    public func render() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        write(into: &out)
        return out
    }

    public func renderString() -> String {
        String(decoding: render(), as: UTF8.self)
    }

    func write(into out: inout [UInt8]) {
        switch storage {
        case .element(let name, let attributes, let children):
            writeOpenTag(name, attributes, into: &out)
            for child in children { child.write(into: &out) }
            out.append(contentsOf: "</".utf8)
            out.append(contentsOf: name.utf8)
            out.append(UInt8(ascii: ">"))
        case .void(let name, let attributes):
            writeOpenTag(name, attributes, into: &out)
        case .text(let text):
            Escaping.appendText(text, to: &out)
        case .raw(let markup):
            out.append(contentsOf: markup.utf8)
        }
    }

    private func writeOpenTag(_ name: String, _ attributes: [Attribute], into out: inout [UInt8]) {
        out.append(UInt8(ascii: "<"))
        out.append(contentsOf: name.utf8)
        for attribute in attributes {
            out.append(UInt8(ascii: " "))
            out.append(contentsOf: attribute.name.utf8)
            if let value = attribute.value {
                out.append(contentsOf: "=\"".utf8)
                Escaping.appendAttributeValue(value, to: &out)
                out.append(UInt8(ascii: "\""))
            }
        }
        out.append(UInt8(ascii: ">"))
    }
}

/// The only place escaping happens: one byte loop, which escapes quotes too in attribute values.
public enum Escaping {
    public static func appendText(_ text: String, to out: inout [UInt8]) {
        append(text, escapingQuotes: false, to: &out)
    }

    public static func appendAttributeValue(_ value: String, to out: inout [UInt8]) {
        append(value, escapingQuotes: true, to: &out)
    }

    private static func append(_ string: String, escapingQuotes: Bool, to out: inout [UInt8]) {
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\"") where escapingQuotes: out.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'") where escapingQuotes: out.append(contentsOf: "&#39;".utf8)
            default: out.append(byte)
            }
        }
    }
}

/// A whole page: the doctype and the `html` element.
public struct HTMLDocument: Sendable {
    public let root: HTMLNode

    public init(root: HTMLNode) {
        self.root = root
    }

    public func render() -> [UInt8] {
        var out = Array("<!DOCTYPE html>\n".utf8)
        root.write(into: &out)
        return out
    }
}
