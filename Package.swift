// swift-tools-version:6.0
import PackageDescription

// The always-on programs (sysstatsd, later sysstats-bar) link only Glibc and the
// standard library; they are linked statically because that alone saves ~2 MiB
// of resident memory (see docs/performance.md). Only the CLI uses Foundation.
let staticExecutable: [LinkerSetting] = [.unsafeFlags(["-static-executable"], .when(platforms: [.linux]))]

let package = Package(
    name: "sysstats",
    products: [
        .executable(name: "sysstatsd", targets: ["sysstatsd"]),
        .executable(name: "sysstats", targets: ["sysstats"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // Readers of /proc and /sys: one small reader per file, over a reused buffer.
        .target(name: "ProcFS"),
        // The snapshot contract between sampler and renderers. No dependencies at all,
        // so an Embedded Swift renderer can compile the same sources.
        .target(name: "SnapshotCodec"),
        // What the sampler computes from two consecutive readings, and how it writes the snapshot.
        .target(name: "Sampler", dependencies: ["ProcFS", "SnapshotCodec"]),
        .executableTarget(name: "sysstatsd", dependencies: ["Sampler"], linkerSettings: staticExecutable),

        // libsqlite3's C API (pkg-config sqlite3). A static link of a program that uses it
        // also needs -lm -lz (see docs/history.md).
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // History in SQLite: the one owner of the schema, its migrations, retention, backup and
        // restore. No Foundation: the always-on sampler links it.
        .target(name: "HistoryStore", dependencies: ["CSQLite", "SnapshotCodec"]),

        .target(name: "SysstatsCLI", dependencies: [
            "SnapshotCodec", "ProcFS", "Sampler",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "sysstats", dependencies: ["SysstatsCLI"]),

        .testTarget(name: "ProcFSTests", dependencies: ["ProcFS", "TestSupport"]),
        .testTarget(name: "SnapshotCodecTests", dependencies: ["SnapshotCodec"], exclude: ["Golden"]),
        // Counts heap allocations in the test process, for "a steady-state update allocates nothing".
        .target(name: "AllocationCounter", path: "Tests/AllocationCounter"),
        // Fixture paths, temporary directories and live fixture trees, shared by the test targets.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "SamplerTests", dependencies: ["Sampler", "ProcFS", "SnapshotCodec", "AllocationCounter", "TestSupport"]),
        .testTarget(name: "HistoryStoreTests", dependencies: ["HistoryStore", "SnapshotCodec", "TestSupport"]),
        .testTarget(name: "SysstatsCLITests", dependencies: ["SysstatsCLI", "SnapshotCodec", "TestSupport"]),
        // Run the built programs (release binaries for the memory budgets).
        .testTarget(name: "EndToEndTests", dependencies: ["SnapshotCodec", "TestSupport"]),
    ]
)
