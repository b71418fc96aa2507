import AdminDomain
import Foundation

/// Which variant, recipient, language and platform a draft's message preview shows, from the
/// page's query. A value the page does not offer is refused with a sentence.
struct MessagePreviewChoice: QueryForm {
    static let fieldNames = ["variant", "sample", "language", "platform"]
    var fields: [String: String] = [:]
    init() {}

    init(variant: MessageVariant? = nil, sample: Int64?, language: String?, platform: Platform?) {
        self.init()
        fields["variant"] = variant?.letter
        fields["sample"] = sample.map(String.init)
        fields["language"] = language
        fields["platform"] = platform?.rawValue
    }

    struct Read {
        var variant: MessageVariant?
        var sample: Int64?
        var language: String?
        var platform: Platform?
        var problems: [String] = []
    }

    /// The variant asked for, when the campaign has it (`?variant=A` to `D`): its text decides
    /// the languages offered. `read` says why another is refused.
    func variant(in letters: [MessageVariant]) -> MessageVariant? {
        fields["variant"].flatMap { text in letters.first { $0.letter == text } }
    }

    /// `samples`: the users the preview may show; `languages`: the languages of the shown
    /// variant's text; `variants`: the campaign's letters.
    func read(samples: [Int64], languages: [String], variants: [MessageVariant] = [.a]) -> Read {
        var reader = FieldReader(self)
        var result = Read()
        result.variant = reader.choice("variant", "variant", in: variants.map(\.letter)).flatMap { text in
            variants.first { $0.letter == text }
        }
        if let text = fields["sample"] {
            if let id = Int64(text), samples.contains(id) {
                result.sample = id
            } else {
                reader.problem("User \(text) is not one of the sample recipients: choose one from the list.")
            }
        }
        result.language = reader.choice("language", "language", in: languages)
        result.platform = reader.term("platform", "platform")
        result.problems = reader.problems
        return result
    }
}
