// Typed element constructors. Every element goes through `element`/`voidElement`, whose
// tag names are literals: a tag name can never come from data.

public func element(_ name: StaticString, _ attributes: [Attribute], @HTMLBuilder content: () -> [HTMLNode]) -> HTMLNode
{
    HTMLNode(.element(name: name.description, attributes: attributes, children: content()))
}

public func voidElement(_ name: StaticString, _ attributes: [Attribute]) -> HTMLNode {
    HTMLNode(.void(name: name.description, attributes: attributes))
}

/// `<main>`: named so because `main` reads as a program entry point in Swift.
public func mainElement(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("main", attributes, content: content)
}

public func html(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("html", attributes, content: content)
}

public func head(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("head", attributes, content: content)
}

public func body(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("body", attributes, content: content)
}

public func title(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("title", attributes, content: content)
}

public func header(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("header", attributes, content: content)
}

public func nav(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("nav", attributes, content: content)
}

public func footer(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("footer", attributes, content: content)
}

public func section(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("section", attributes, content: content)
}

public func article(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("article", attributes, content: content)
}

public func aside(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("aside", attributes, content: content)
}

public func div(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("div", attributes, content: content)
}

public func span(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("span", attributes, content: content)
}

public func p(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("p", attributes, content: content)
}

public func a(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("a", attributes, content: content)
}

public func h1(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("h1", attributes, content: content)
}

public func h2(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("h2", attributes, content: content)
}

public func h3(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("h3", attributes, content: content)
}

public func ul(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("ul", attributes, content: content)
}

public func ol(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("ol", attributes, content: content)
}

public func li(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("li", attributes, content: content)
}

public func table(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("table", attributes, content: content)
}

public func caption(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("caption", attributes, content: content)
}

public func thead(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("thead", attributes, content: content)
}

public func tbody(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("tbody", attributes, content: content)
}

public func tr(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("tr", attributes, content: content)
}

public func th(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("th", attributes, content: content)
}

public func td(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("td", attributes, content: content)
}

public func form(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("form", attributes, content: content)
}

public func label(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("label", attributes, content: content)
}

public func button(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("button", attributes, content: content)
}

public func strong(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("strong", attributes, content: content)
}

public func em(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("em", attributes, content: content)
}

public func small(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("small", attributes, content: content)
}

public func code(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("code", attributes, content: content)
}

public func dl(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("dl", attributes, content: content)
}

public func dt(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("dt", attributes, content: content)
}

public func dd(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("dd", attributes, content: content)
}

public func time(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("time", attributes, content: content)
}

public func select(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("select", attributes, content: content)
}

public func option(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("option", attributes, content: content)
}

public func details(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("details", attributes, content: content)
}

public func summary(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("summary", attributes, content: content)
}

public func script(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("script", attributes, content: content)
}

public func noscript(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("noscript", attributes, content: content)
}

public func figure(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("figure", attributes, content: content)
}

public func figcaption(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("figcaption", attributes, content: content)
}

public func output(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("output", attributes, content: content)
}

public func textarea(_ attributes: Attribute..., @HTMLBuilder content: () -> [HTMLNode] = { [] }) -> HTMLNode {
    element("textarea", attributes, content: content)
}

public func meta(_ attributes: Attribute...) -> HTMLNode {
    voidElement("meta", attributes)
}

public func link(_ attributes: Attribute...) -> HTMLNode {
    voidElement("link", attributes)
}

public func input(_ attributes: Attribute...) -> HTMLNode {
    voidElement("input", attributes)
}

public func br(_ attributes: Attribute...) -> HTMLNode {
    voidElement("br", attributes)
}

public func hr(_ attributes: Attribute...) -> HTMLNode {
    voidElement("hr", attributes)
}

public func img(_ attributes: Attribute...) -> HTMLNode {
    voidElement("img", attributes)
}
