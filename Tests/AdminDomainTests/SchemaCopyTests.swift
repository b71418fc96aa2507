import AdminDomain
import DemoData
import Foundation
import Testing
import TestSupport

@Test(
    "The vendored schema is byte-identical to shared/app-schema.sql",
    .enabled(if: FileManager.default.fileExists(atPath: TestPaths.sharedSchema.path), "shared/app-schema.sql is not beside this checkout")
)
func vendoredSchemaMatchesTheContract() throws {
    let contract = try Data(contentsOf: TestPaths.sharedSchema)
    let vendored = try Data(contentsOf: TestPaths.repositoryRoot.appendingPathComponent("Sources/DemoData/Resources/app-schema.sql"))
    #expect(vendored == contract, "Sources/DemoData/Resources/app-schema.sql differs: copy shared/app-schema.sql over it")
    #expect(try AppSchema.sql == String(decoding: contract, as: UTF8.self))
}

@Test func schemaSplitsIntoEveryTableAndIndex() throws {
    let (tables, indexes) = try AppSchema.statements()
    #expect(tables.count == AppSchema.tableNames.count)
    #expect(indexes.count == 15)
}
