import AdminDomain
import DemoData
import Foundation
import GRDB
import TestSupport
import Testing

@Test(
    "The vendored schema is byte-identical to shared/app-schema.sql",
    .enabled(
        if: FileManager.default.fileExists(atPath: TestPaths.sharedSchema.path),
        "shared/app-schema.sql is not beside this checkout")
)
func vendoredSchemaMatchesTheContract() throws {
    let contract = try Data(contentsOf: TestPaths.sharedSchema)
    let vendored = try Data(
        contentsOf: TestPaths.repositoryRoot.appendingPathComponent("Sources/DemoData/Resources/app-schema.sql"))
    #expect(
        vendored == contract, "Sources/DemoData/Resources/app-schema.sql differs: copy shared/app-schema.sql over it")
    #expect(try AppSchema.sql == String(decoding: contract, as: UTF8.self))
}

/// The split statements, run into an empty database, make exactly the tables and indexes
/// the schema's text names (read here by a pattern of its own, not by the splitter).
@Test func schemaSplitsIntoEveryTableAndIndex() throws {
    let (tables, indexes) = try AppSchema.statements()
    let text = try AppSchema.sql
    func names(after pattern: String) throws -> Set<String> {
        let regex = try Regex(pattern)
        return Set(text.matches(of: regex).compactMap { $0.output[1].substring.map(String.init) })
    }
    let namedTables = try names(after: #"(?m)^CREATE TABLE (?:IF NOT EXISTS )?(\w+)"#)
    let namedIndexes = try names(after: #"(?m)^CREATE (?:UNIQUE )?INDEX (?:IF NOT EXISTS )?(\w+)"#)
    #expect(namedTables.count >= 10 && namedIndexes.count >= 10, "the patterns found the schema's statements")
    #expect(tables.count == namedTables.count && indexes.count == namedIndexes.count)
    #expect(Set(AppSchema.tableNames) == namedTables)

    let queue = try DatabaseQueue()
    try queue.write { db in
        for statement in tables + indexes { try db.execute(sql: statement) }
    }
    let made = try queue.read { db in
        try Row.fetchAll(db, sql: "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
            .map { (type: $0["type"] as String, name: $0["name"] as String) }
    }
    #expect(Set(made.filter { $0.type == "table" }.map(\.name)) == namedTables)
    #expect(Set(made.filter { $0.type == "index" }.map(\.name)) == namedIndexes)
}
