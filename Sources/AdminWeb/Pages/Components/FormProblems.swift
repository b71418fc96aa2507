import HTMLRender

/// Why a form was refused: every sentence, in order, and for those about one field that
/// field's name (also its element's id). A page shows them all at the top, each a link to
/// its field, and again beside the field, which is marked `aria-invalid` and described by
/// them, so that a screen reader on the field hears why and nothing typed is hidden.
struct FormProblems: Sendable, Equatable {
    private(set) var sentences: [String] = []
    /// Sentence to field name.
    private(set) var fields: [String: String] = [:]

    init(_ sentences: [String] = [], fields: [String: String] = [:]) {
        self.sentences = sentences
        self.fields = fields
    }

    var isEmpty: Bool { sentences.isEmpty }

    func about(_ field: String) -> [String] {
        sentences.filter { fields[$0] == field }
    }

    static func messageID(_ field: String) -> String { "\(field)-error" }

    /// `aria-invalid` and `aria-describedby` for a field refused, nothing for another.
    func marks(_ field: String) -> [Attribute] {
        about(field).isEmpty
            ? [] : [Attribute("aria-invalid", "true"), Attribute("aria-describedby", Self.messageID(field))]
    }

    /// The sentences about `field`, to stand next to it; nothing when there are none.
    @HTMLBuilder func message(_ field: String) -> [HTMLNode] {
        let mine = about(field)
        if !mine.isEmpty {
            p(.class("field-error"), .id(Self.messageID(field))) { mine.joined(separator: " ") }
        }
    }

    /// Every sentence at the top of the form: those about a field link to it.
    func summary(_ heading: String) -> HTMLNode {
        div(.class("notice error error-summary"), .role("alert")) {
            p { heading }
            ul {
                for sentence in sentences {
                    if let field = fields[sentence] {
                        li { a(.href("#\(field)")) { sentence } }
                    } else {
                        li { sentence }
                    }
                }
            }
        }
    }
}
