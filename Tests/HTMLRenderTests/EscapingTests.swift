import HTMLRender
import Testing

private let hostile = #"<script>alert("x") & 'y'</script>"#
private let escapedText = #"&lt;script&gt;alert("x") &amp; 'y'&lt;/script&gt;"#
private let escapedAttribute = "&lt;script&gt;alert(&quot;x&quot;) &amp; &#39;y&#39;&lt;/script&gt;"

@Test func textEscapesAmpersandAndAngleBrackets() {
    #expect(p { hostile }.renderString() == "<p>\(escapedText)</p>")
}

@Test(arguments: [
    Attribute.class(hostile), .id(hostile), .title(hostile), .name(hostile), .value(hostile), .placeholder(hostile),
    .type(hostile), .autocomplete(hostile), .for(hostile), .rel(hostile), .lang(hostile), .content(hostile),
    .role(hostile), .ariaLabel(hostile), .datetime(hostile), .scope(hostile), Attribute("viewBox", hostile),
])
func everyAttributeEscapesQuotesAndMarkup(attribute: Attribute) {
    let html = span(attribute).renderString()
    #expect(html.hasSuffix("=\"\(escapedAttribute)\"></span>"))
    #expect(!html.contains("<script>"))
    #expect(!html.contains("'"))
}

@Test func attributeCannotBreakOutOfItsQuotes() {
    let html = input(.value(#"" autofocus onfocus="alert(1)"#)).renderString()
    #expect(html == #"<input value="&quot; autofocus onfocus=&quot;alert(1)">"#)
}

@Test(arguments: [
    "javascript:alert(1)", "JaVaScRiPt:alert(1)", " javascript:alert(1)", "java\tscript:alert(1)",
    "java\nscript:alert(1)", "\u{1}javascript:alert(1)", "data:text/html;base64,PHNjcmlwdD4=", "vbscript:msgbox(1)",
])
func scriptURLsAreNeutralised(url: String) {
    for attribute in [Attribute.href(url), .src(url), .action(url)] {
        #expect(a(attribute).renderString().contains("=\"#\""))
    }
}

@Test(arguments: [
    "/users?q=a&b=c", "https://example.com/x", "mailto:support@example.com", "relative/path", "#top", "?page=2",
])
func ordinaryURLsAreKeptAndEscaped(url: String) {
    var expected: [UInt8] = []
    Escaping.appendAttributeValue(url, to: &expected)
    #expect(a(.href(url)).renderString() == "<a href=\"\(String(decoding: expected, as: UTF8.self))\"></a>")
}

private struct Card: HTMLComponent {
    let heading: String
    let note: String
    var content: HTMLNode {
        section(.class("card"), .title(heading)) {
            h2 { heading }
            Inner(text: note)
        }
    }
}

private struct Inner: HTMLComponent {
    let text: String
    var content: HTMLNode { p(.dataValue(text)) { text } }
}

extension Attribute {
    fileprivate static func dataValue(_ value: String) -> Attribute { Attribute("data-value", value) }
}

@Test func nestedComponentsEscapeAtEveryDepth() {
    let html = div { Card(heading: hostile, note: hostile) }.renderString()
    #expect(
        html == """
            <div><section class="card" title="\(escapedAttribute)"><h2>\(escapedText)</h2>\
            <p data-value="\(escapedAttribute)">\(escapedText)</p></section></div>
            """)
}

@Test func onlyTheUnsafeAPIInsertsMarkup() {
    let html = div {
        HTMLNode.unsafeRawHTML("<b>trusted</b>")
        "<b>untrusted</b>"
    }.renderString()
    #expect(html == "<div><b>trusted</b>&lt;b&gt;untrusted&lt;/b&gt;</div>")
}

@Test func unicodeAndControlFlowRender() {
    let names = ["Zoë", "\u{202E}gnp.exe", "👩‍👩‍👧‍👦", "محمد"]
    let html = ul {
        for name in names { li { name } }
        if names.isEmpty { li { "none" } } else { li(.class("count")) { "\(names.count)" } }
    }.renderString()
    #expect(
        html == "<ul><li>Zoë</li><li>\u{202E}gnp.exe</li><li>👩‍👩‍👧‍👦</li><li>محمد</li><li class=\"count\">4</li></ul>")
}

@Test func voidElementsAndBooleanAttributes() {
    #expect(input(.type("email"), .required, .disabled).renderString() == #"<input type="email" required disabled>"#)
    #expect(br().renderString() == "<br>")
}

@Test func documentStartsWithDoctypeAndRendersToBytes() {
    let document = HTMLDocument(root: html(.lang("en")) { body { "é" } })
    #expect(document.render() == Array("<!DOCTYPE html>\n<html lang=\"en\"><body>é</body></html>".utf8))
}

/// A field marked after it was built (a refused form field): its attributes after its own,
/// escaped like any; text is left as it was.
@Test func attributesAddedToAnElementAreEscapedAndTextIsLeftAlone() {
    let marked = input(.type("text"), .name("title")).adding([
        Attribute("aria-invalid", "true"), Attribute("aria-describedby", hostile),
    ])
    #expect(
        marked.renderString()
            == "<input type=\"text\" name=\"title\" aria-invalid=\"true\" aria-describedby=\"\(escapedAttribute)\">")
    #expect(p { "x" }.adding([.open]).renderString() == "<p open>x</p>")
    #expect(HTMLNode.text(hostile).adding([.open]).renderString() == escapedText)
}
