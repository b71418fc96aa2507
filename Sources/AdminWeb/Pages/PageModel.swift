import AdminDomain

/// A page's data: plain values built in one place, by `load`, from what the page reads (its
/// `Source`: the one domain service, or a small struct of the few it needs) and a typed input
/// (the page's form, an id, who is looking). Views render a model and nothing else, so a test
/// renders any view from a model made by hand, without a database. Pages without data of
/// their own (sign-in, the password form) have a model and no `load`.
protocol PageModel {
    associatedtype Source
    associatedtype Input
    /// Throws `HTTPError(.notFound)` when the input names something that does not exist.
    static func load(_ source: Source, _ input: Input) async throws -> Self
}
