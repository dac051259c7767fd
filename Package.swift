// swift-tools-version: 6.1
import PackageDescription

/// What the benchmark runner and the micro-benchmarks build on.
let benchmarkedTargets: [Target.Dependency] = ["ArrangeModel", "ArrangeStore", "ArrangeOrdering", "ArrangeSQLite", "ArrangeBenchSupport"]

/// Settings every target of this package is built with.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Arrange",
    // The messages a person may see are English in the libraries' tables; translations go beside them.
    defaultLocalization: "en",
    // What apps ship on: every target builds for these, the command line and the server too.
    platforms: [.macOS(.v14), .iOS(.v17), .watchOS(.v10), .tvOS(.v17), .visionOS(.v1)],
    products: [
        .library(name: "ArrangeModel", targets: ["ArrangeModel"]),
        .library(name: "ArrangeStore", targets: ["ArrangeStore"]),
        .library(name: "ArrangeOrdering", targets: ["ArrangeOrdering"]),
        .library(name: "ArrangeSQLite", targets: ["ArrangeSQLite"]),
        .library(name: "ArrangeIntents", targets: ["ArrangeIntents"]),
        .library(name: "ArrangeArchive", targets: ["ArrangeArchive"]),
        .library(name: "ArrangeChanges", targets: ["ArrangeChanges"]),
        .library(name: "ArrangeThings", targets: ["ArrangeThings"]),
        .library(name: "ArrangeSync", targets: ["ArrangeSync"]),
        .library(name: "ArrangeSyncHTTP", targets: ["ArrangeSyncHTTP"]),
        .executable(name: "arrange", targets: ["ArrangeExecutable"]),
        .executable(name: "arrange-remote-http", targets: ["ArrangeRemoteHTTP"]),
        .executable(name: "arrange-server", targets: ["ArrangeServerExecutable"]),
        .executable(name: "arrange-soak", targets: ["ArrangeSoak"]),
        .executable(name: "arrange-bench", targets: ["ArrangeBench"]),
        .executable(name: "arrange-server-bench", targets: ["ArrangeServerBench"]),
    ],
    dependencies: [
        // Libraries take `from:`, so that an app's own graph can resolve them.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // SHA-256 for the trailer of operations files; on Apple platforms it re-exports CryptoKit.
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // The server only: `arrange-server` is an executable of its own, and no library depends
        // on these; `from:` all the same, so that an app's graph that holds them too resolves.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // `serve` runs its HTTP server, its pool and its folds as services of one group, with
        // graceful shutdown: the ServiceLifecycle that Hummingbird and postgres-nio build on.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // The server benchmark's load client, on the SwiftNIO that Hummingbird brings.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // Tests and benchmarks only.
        .package(url: "https://github.com/x-sheep/swift-property-based", exact: "2.0.1"),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        // Reads openapi.yaml in the test that keeps it true.
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
        // Documentation only: `swift package generate-documentation` (scripts/docs).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", exact: "1.5.0"),
    ],
    targets: [
        .target(name: "ArrangeModel", resources: [.process("Resources")]),
        .target(name: "ArrangeStore",
            dependencies: [
                "ArrangeModel",
                .product(name: "HashTreeCollections", package: "swift-collections"),
            ],
            resources: [.process("Resources")]
        ),
        .target(name: "ArrangeOrdering", dependencies: ["ArrangeModel", "ArrangeStore"], resources: [.process("Resources")]),
        .target(name: "ArrangeArchive", dependencies: ["ArrangeModel"], resources: [.process("Resources")]),
        // Every kind of change as a value, in a file of its own, and the operations that carry them.
        .target(name: "ArrangeChanges", dependencies: ["ArrangeModel", "ArrangeStore", "ArrangeOrdering"]),
        .target(name: "ArrangeSync",
            dependencies: ["ArrangeModel", "ArrangeStore", "ArrangeOrdering", "ArrangeChanges", .product(name: "Crypto", package: "swift-crypto")],
            resources: [.process("Resources")]
        ),
        // Sync with a server over HTTP: protocol version 1, and its client over any transport.
        .target(name: "ArrangeSyncHTTPCore",
            dependencies: ["ArrangeModel", "ArrangeStore", "ArrangeSync"],
            // The protocol as OpenAPI 3.1: documentation, kept true by ArrangeServerTests.
            exclude: ["openapi.yaml"],
            resources: [.process("Resources")]
        ),
        // The same, and its transport on URLSession: what an app imports.
        .target(name: "ArrangeSyncHTTP", dependencies: ["ArrangeSyncHTTPCore"]),
        // HTTP exchanges over pipes, between arrange and arrange-remote-http.
        .target(name: "ArrangeHTTPPipe", dependencies: ["ArrangeSyncHTTPCore"]),
        // arrange-remote-http: sends arrange sync's requests with URLSession, so arrange need not load it.
        .executableTarget(name: "ArrangeRemoteHTTP", dependencies: ["ArrangeHTTPPipe", "ArrangeSyncHTTP"]),
        // The sync server: PostgreSQL behind Hummingbird; the executable only parses its command line.
        .target(name: "ArrangeServer",
            dependencies: [
                "ArrangeModel",
                "ArrangeChanges",
                "ArrangeStore",
                "ArrangeSync",
                "ArrangeSyncHTTPCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(name: "ArrangeServerExecutable",
            dependencies: ["ArrangeServer"]
        ),
        // The server benchmark's load client and its bare Hummingbird ceiling (scripts/bench-server).
        .executableTarget(name: "ArrangeServerBench",
            dependencies: [
                "ArrangeModel",
                "ArrangeSync",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .target(name: "ArrangeThings",
            dependencies: ["ArrangeModel", "ArrangeArchive", "ArrangeIntents", .product(name: "GRDB", package: "GRDB.swift")],
            resources: [.process("Resources")]
        ),
        .target(name: "ArrangeIntents",
            dependencies: [
                "ArrangeModel", "ArrangeStore", "ArrangeOrdering", "ArrangeChanges", "ArrangeArchive",
                // SHA-256 for the digest of the token of links; on Apple platforms it re-exports CryptoKit.
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            resources: [.process("Resources")]
        ),
        .target(name: "ArrangeCommandLine",
            dependencies: [
                "ArrangeModel",
                "ArrangeStore",
                "ArrangeOrdering",
                "ArrangeIntents",
                "ArrangeArchive",
                "ArrangeThings",
                "ArrangeSync",
                "ArrangeSyncHTTPCore",
                "ArrangeHTTPPipe",
                "ArrangeSQLite",
                "ArrangeLineEditor",
                "ArrangeShellWords",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "ArrangeExecutable",
            dependencies: ["ArrangeCommandLine", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .target(name: "ArrangeShellWords"),
        // libedit for the REPL's line editing, and the few calls Swift cannot make to it.
        .systemLibrary(name: "CLibEdit", pkgConfig: "libedit", providers: [.apt(["libedit-dev"])]),
        .target(name: "CLibEditShim", dependencies: ["CLibEdit"]),
        .target(name: "ArrangeLineEditor", dependencies: ["CLibEdit", "CLibEditShim"]),
        .target(name: "ArrangeSQLite",
            dependencies: [
                "ArrangeModel",
                "ArrangeStore",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for the file's data version (`SQLITE_FCNTL_DATA_VERSION`).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        .executableTarget(name: "ArrangeSoak",
            dependencies: [
                "ArrangeModel",
                "ArrangeStore",
                "ArrangeOrdering",
                "ArrangeSQLite",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The benchmark runner, and the bulk loading it shares with the micro-benchmarks.
        .target(name: "ArrangeBenchSupport", dependencies: ["ArrangeModel", "ArrangeStore"]),
        .executableTarget(name: "ArrangeBench",
            dependencies: benchmarkedTargets + [
                // The sync section.
                "ArrangeSync",
                // The search section runs Quick Find and adds as the app does.
                "ArrangeIntents",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // A second connection to the latency section's database, for a bare UPDATE.
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // Micro-benchmarks of the hot paths: `swift package benchmark` finds the targets under Benchmarks/.
        .executableTarget(
            name: "ArrangeBenchmarks",
            dependencies: benchmarkedTargets + [.product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/ArrangeBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .testTarget(name: "ArrangeShellWordsTests", dependencies: ["ArrangeShellWords"]),
        .testTarget(name: "ArrangeLineEditorTests", dependencies: ["ArrangeLineEditor"]),
        .testTarget(name: "ArrangeModelTests", dependencies: ["ArrangeModel"]),
        .testTarget(name: "ArrangeArchiveTests", dependencies: ["ArrangeArchive"]),
        .testTarget(
            name: "ArrangeSyncTests",
            dependencies: [
                "ArrangeSync", "ArrangeChanges", "ArrangeModel", "ArrangeStore", "ArrangeOrdering", "ArrangeSQLite", "ArrangeIntents",
                .product(name: "PropertyBased", package: "swift-property-based"),
                // To seal test files with a trailer computed apart from the code under test.
                .product(name: "Crypto", package: "swift-crypto"),
                // To open two repositories on one connection.
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            // Files written by an earlier version, which every later one must read (KeptFilesTests).
            resources: [.copy("Kept")]
        ),
        .testTarget(
            name: "ArrangeServerTests",
            dependencies: [
                "ArrangeServer", "ArrangeSyncHTTP", "ArrangeSyncHTTPCore", "ArrangeSync", "ArrangeIntents", "ArrangeSQLite", "ArrangeStore", "ArrangeOrdering", "ArrangeModel",
                // Built so that the tests run `arrange-server`, `arrange` and its `arrange-remote-http` as processes of their own.
                "ArrangeServerExecutable", "ArrangeExecutable", "ArrangeRemoteHTTP",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .testTarget(
            name: "ArrangeThingsTests",
            dependencies: ["ArrangeThings", "ArrangeArchive", "ArrangeIntents", "ArrangeStore", "ArrangeModel", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(name: "ArrangeIntentsTests", dependencies: ["ArrangeIntents"]),
        .testTarget(name: "ArrangeHTTPPipeTests", dependencies: ["ArrangeHTTPPipe", "ArrangeSyncHTTPCore"]),
        .testTarget(
            name: "ArrangeCommandLineTests",
            // The executable is a dependency so that building the tests builds `arrange`,
            // which the end-to-end tests run.
            dependencies: [
                "ArrangeCommandLine", "ArrangeExecutable", "ArrangeIntents", "ArrangeModel", "ArrangeStore", "ArrangeOrdering",
                // To write sync files as a newer version of Arrange would.
                "ArrangeSync",
                // To open the files that the crash and two-process tests leave, as a new process would.
                "ArrangeSQLite",
                // For help texts and exit codes.
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // To count the statements a command runs.
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // An app's view of the core: the public API only, an app-owned DatabasePool, and `arrange` as another process.
        .testTarget(
            name: "ArrangeAppTests",
            dependencies: [
                "ArrangeIntents", "ArrangeModel", "ArrangeOrdering", "ArrangeSQLite", "ArrangeStore", "ArrangeSync",
                // Every library with messages a person may see.
                "ArrangeArchive", "ArrangeSyncHTTP", "ArrangeThings",
                // Built so that the tests can run `arrange` beside the app.
                "ArrangeExecutable",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            // A database an earlier `arrange` wrote (SyncFreeFileTests).
            resources: [.copy("Kept")]
        ),
        .testTarget(
            name: "ArrangeStoreTests",
            dependencies: [
                "ArrangeModel",
                "ArrangeStore",
                "ArrangeSQLite",
                // To look at the schema and the query plans of SQLite.
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "ArrangeOrderingTests",
            dependencies: [
                "ArrangeOrdering",
                "ArrangeSQLite",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// Sources/ in layers, a folder each, from the model up: a target builds only on its own layer
// and the layers before it here.
let layers: KeyValuePairs<String, [String]> = [
    // The app core: the model, the store's protocols, the ordering, the kinds of change, SQLite, the export format, the intents.
    "Core": ["ArrangeModel", "ArrangeStore", "ArrangeOrdering", "ArrangeChanges", "ArrangeSQLite", "ArrangeArchive", "ArrangeIntents"],
    // What another program wrote: Things 3's database.
    "Import": ["ArrangeThings"],
    // Sync between devices, and its HTTP protocol and client.
    "Sync": ["ArrangeSync", "ArrangeSyncHTTPCore", "ArrangeSyncHTTP"],
    // The sync server, an executable of its own.
    "Server": ["ArrangeServer", "ArrangeServerExecutable"],
    // `arrange`: its commands, the REPL's line editing, and the HTTP helper process.
    "CommandLine": [
        "ArrangeCommandLine", "ArrangeExecutable", "ArrangeLineEditor", "ArrangeShellWords", "CLibEdit", "CLibEditShim", "ArrangeHTTPPipe",
        "ArrangeRemoteHTTP",
    ],
    // Benchmarks and the soak test.
    "Tools": ["ArrangeBench", "ArrangeBenchSupport", "ArrangeServerBench", "ArrangeSoak"],
]
for (layer, names) in layers {
    for target in package.targets where names.contains(target.name) {
        target.path = "Sources/\(layer)/\(target.name)"
    }
}

// A system library accepts no settings; a C target ignores Swift settings.
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + strictSettings
}
