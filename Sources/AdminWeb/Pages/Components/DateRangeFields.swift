import HTMLRender

/// A filter's first and last day, `from` and `to`, each as typed.
enum DateRangeFields {
    @HTMLBuilder static func fields(
        from: String, _ fromLabel: String = "From", to: String, _ toLabel: String = "To"
    ) -> [HTMLNode] {
        label {
            fromLabel
            input(.type("date"), .name("from"), .value(from))
        }
        label {
            toLabel
            input(.type("date"), .name("to"), .value(to))
        }
    }
}
