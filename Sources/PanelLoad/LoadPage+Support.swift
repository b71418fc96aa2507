extension LoadPage {
    /// Support's two everyday pages and `/health`, their floor, as the benchmarks time them
    /// beside a heavy job.
    public static func support(_ fixture: LoadFixture, floor: String) -> [LoadPage] {
        [
            LoadPage("search", "/users?q=maria"), LoadPage("profile", "/users/\(fixture.typicalUserID)"),
            LoadPage(floor, "/health"),
        ]
    }
}
