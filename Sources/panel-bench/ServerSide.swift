import ArgumentParser

/// `--binary` of the benchmarks that measure the server only when given one.
struct ServerSide: ParsableArguments {
    @Option(help: "The admin-panel binary, e.g. .build/release/admin-panel: then the server's side too (see above).")
    var binary: String?
}
