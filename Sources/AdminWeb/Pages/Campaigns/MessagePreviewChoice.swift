import AdminDomain
import Foundation

/// Which recipient, language and platform a draft's message preview shows, from the page's
/// query. A value the page does not offer is refused with a sentence.
struct MessagePreviewChoice: QueryForm {
    static let fieldNames = ["sample", "language", "platform"]
    var fields: [String: String] = [:]
    init() {}

    init(sample: Int64?, language: String?, platform: Platform?) {
        self.init()
        fields["sample"] = sample.map(String.init)
        fields["language"] = language
        fields["platform"] = platform?.rawValue
    }

    struct Read {
        var sample: Int64?
        var language: String?
        var platform: Platform?
        var problems: [String] = []
    }

    /// `samples`: the users the preview may show; `languages`: the message's variants.
    func read(samples: [Int64], languages: [String]) -> Read {
        var reader = FieldReader(self)
        var result = Read()
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
