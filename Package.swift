// swift-tools-version: 6.1
import PackageDescription

/// Settings every target of this package is built with.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Arrange",
    platforms: [.macOS(.v15), .iOS(.v18), .watchOS(.v11), .tvOS(.v18), .visionOS(.v2)],
    products: [
        .library(name: "ArrangeModel", targets: ["ArrangeModel"]),
        .library(name: "ArrangeStore", targets: ["ArrangeStore"]),
        .library(name: "ArrangeSQLite", targets: ["ArrangeSQLite"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections", exact: "1.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        .target(name: "ArrangeModel"),
        .target(
            name: "ArrangeStore",
            dependencies: [
                "ArrangeModel",
                .product(name: "HashTreeCollections", package: "swift-collections"),
            ]
        ),
        .target(
            name: "ArrangeSQLite",
            dependencies: [
                "ArrangeModel",
                "ArrangeStore",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(name: "ArrangeModelTests", dependencies: ["ArrangeModel"]),
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
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + strictSettings
}
