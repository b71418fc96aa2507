// swift-tools-version: 6.2
import PackageDescription

/// Every warning of our own code is an error. "No 'async' operations occur within 'await'
/// expression" is only a warning, and it once hid a synchronous database read in async code
/// that deadlocked the server under load.
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
    name: "expiry-admin-panel",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "admin-panel", targets: ["admin-panel"])
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", exact: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", exact: "4.5.2"),
        .package(url: "https://github.com/vapor/jwt-kit.git", exact: "5.8.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.15.0"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.0.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", exact: "2.1.1"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", exact: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.34.1"),
        .package(url: "https://github.com/apple/swift-metrics.git", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", exact: "2.4.1"),
        // Tests only: the views' HTML snapshots. Its other products (and swift-syntax) are not built.
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", exact: "1.19.7"),
    ],
    targets: [
        // Typed HTML with escaping that cannot be forgotten; no dependencies on purpose.
        .target(name: "HTMLRender", swiftSettings: strict),
        // `Public/` as a resource bundle (through a link to the fixed folder), no dependencies.
        .target(name: "PanelAssets", resources: [.copy("Public"), .copy("Templates")], swiftSettings: strict),
        // QR codes for the two-factor enrolment page; no dependencies.
        .target(name: "QRCode", swiftSettings: strict),
        // The one async semaphore (hashes, requests in flight to a provider); no dependencies.
        .target(name: "ConcurrencyLimits", swiftSettings: strict),
        // Domain and storage: SQLite through GRDB, no HTTP types.
        .target(
            name: "AdminDomain",
            dependencies: [
                "ConcurrencyLimits",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's own API, for the dashboard's walks over tens of millions of rows.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            resources: [
                .copy("Auth/Resources/common-passwords.txt"), .copy("Auth/Resources/long-common-passwords.bin"),
            ],
            swiftSettings: strict
        ),
        // Deterministic, hostile demo data at any scale: `seed`, `demo` and the tests' databases.
        .target(
            name: "DemoData",
            dependencies: [
                "AdminDomain",
                .product(name: "GRDB", package: "GRDB.swift"),
                // The seeder binds rows through the C API directly: tens of millions of rows.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            resources: [.copy("Resources/app-schema.sql")],
            swiftSettings: strict
        ),
        // FCM HTTP v1 and APNs clients, to the providers' published protocols; no panel types.
        .target(
            name: "PushClients",
            dependencies: [
                "ConcurrencyLimits",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: strict
        ),
        // Strict fake OAuth, FCM and APNs servers on 127.0.0.1, and the keys they check: for the
        // tests, the benchmark and the demo's device simulator; never in the send path.
        .target(
            name: "PushFakes",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: strict
        ),
        // Campaign message templates from `Templates/`, checked when read, filled per recipient.
        .target(
            name: "PushTemplates",
            dependencies: [.product(name: "Mustache", package: "swift-mustache")],
            swiftSettings: strict
        ),
        // Sends campaigns' due deliveries through the push clients: a service of the group.
        .target(
            name: "CampaignDispatch",
            dependencies: [
                "AdminDomain",
                "PushClients",
                "PushTemplates",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        // The demo's phones: the fake providers, and apps that write receipts.
        .target(
            name: "DeviceSimulator",
            dependencies: [
                "PushFakes",
                // Each seeded user's habitual hour, which the apps open pushes near.
                "DemoData",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        // The demo's stand-in for the app's backend: schedules and sends reminders on the demo database.
        .target(
            name: "DemoBackend",
            dependencies: [
                "AdminDomain",
                "DemoData",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "AdminWeb",
            dependencies: [
                "AdminDomain",
                "CampaignDispatch",
                "PushClients",
                "PushTemplates",
                "HTMLRender",
                "PanelAssets",
                "QRCode",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strict
        ),
        // What `admin-panel demo` does before it serves: a seeded database, the demo's accounts and journeys.
        .target(
            name: "PanelDemo", dependencies: ["AdminWeb", "AdminDomain", "DemoBackend", "DemoData"],
            swiftSettings: strict),
        .executableTarget(
            name: "admin-panel",
            dependencies: [
                "AdminWeb",
                "PanelDemo",
                "PushClients",
                "CampaignDispatch",
                "DeviceSimulator",
                "DemoBackend",
                "AdminDomain",
                "DemoData",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strict
        ),
        // Real-server load: starts `admin-panel serve`, drives it over HTTP, stops it with SIGTERM.
        .target(
            name: "PanelLoad",
            dependencies: [
                "AdminDomain",
                "DemoData",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // Support's pages timed without HTTP.
        .target(
            name: "PanelBenchmarks",
            dependencies: ["AdminDomain", "AdminWeb", "DemoData", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strict
        ),
        // The benchmarks' command line: `panel-bench support`, `load`, `push`, `campaign`, `dashboard`, `previews`, `impact`, `search`, `reminders`, `journeys` and `usual-hours`.
        .executableTarget(
            name: "panel-bench",
            dependencies: [
                "PanelBenchmarks", "PanelLoad", "AdminDomain", "AdminWeb", "PushClients", "PushFakes",
                "CampaignDispatch", "DemoData",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Temporary seeded databases and digests shared by the test targets.
        .target(
            name: "TestSupport",
            dependencies: [
                "AdminDomain", "DemoData", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/TestSupport",
            swiftSettings: strict
        ),
        .testTarget(
            name: "PushClientTests",
            dependencies: [
                "PushClients", "PushFakes",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CampaignDispatchTests",
            dependencies: [
                "CampaignDispatch", "PushClients", "PushFakes", "PushTemplates", "AdminDomain", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "PushTemplateTests", dependencies: ["PushTemplates", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "HTMLRenderTests", dependencies: ["HTMLRender"], swiftSettings: strict),
        .testTarget(
            name: "QRCodeTests", dependencies: ["QRCode", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict),
        // Runs the built executable: exit codes and messages are the command line's contract.
        .testTarget(
            name: "CLITests",
            dependencies: [
                "admin-panel", "PanelLoad", "PushFakes", "TestSupport", "AdminDomain",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "DeviceSimulatorTests",
            dependencies: [
                "DeviceSimulator", "DemoData", "AdminDomain", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "DemoBackendTests",
            dependencies: ["DemoBackend", "AdminDomain", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AdminDomainTests",
            dependencies: [
                "AdminDomain", "ConcurrencyLimits", "DemoData", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AdminWebTests",
            dependencies: [
                "AdminWeb", "AdminDomain", "CampaignDispatch", "DemoData", "HTMLRender", "PanelDemo", "PushClients",
                "PushFakes", "PushTemplates",
                "QRCode", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            // The recorded pages (`*.html`), which the snapshot tests read and write.
            exclude: ["__Snapshots__"],
            swiftSettings: strict
        ),
    ]
)
