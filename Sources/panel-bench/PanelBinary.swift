import ArgumentParser

/// `--binary` of the benchmarks that only measure a real server.
struct PanelBinary: ParsableArguments {
    @Option(help: "The admin-panel binary, e.g. .build/release/admin-panel.")
    var binary: String
}
