// swift-tools-version:6.0
import Foundation
import PackageDescription

// The release, read from the one line that sets it (Sources/SnapshotCodec/Version.swift), for
// the program written in C (sysstatsd-gpu), which cannot import it.
let sysstatsVersion: String = {
    let file = Context.packageDirectory + "/Sources/SnapshotCodec/Version.swift"
    guard let text = try? String(contentsOfFile: file, encoding: .utf8),
          let line = text.split(separator: "\n").first(where: { $0.hasPrefix("public let sysstatsVersion") }),
          line.split(separator: "\"").count >= 2 else { return "unknown" }
    return String(line.split(separator: "\"")[1])
}()

// The sampler and the renderer are static executables: no loader, no shared library's pages
// (docs/performance.md). No program but the CLI links the Swift runtime; none links Foundation.
let staticExecutable: [LinkerSetting] = [.unsafeFlags(["-static-executable"], .when(platforms: [.linux]))]

// The renderer, the sampler and the history writer are Embedded Swift: no runtime, no
// metadata, only the code they call (docs/packaging.md). Embedded modules cannot be imported
// from normal Swift (nor the other way round), so each module they share with the CLI or the
// tests has a twin whose folder is a symbolic link to it (SnapshotCodecEmbedded → SnapshotCodec,
// ProcFSEmbedded → ProcFS, …); the tests and the CLI import the normal twins.
// Release builds optimise the renderer for size: its whole text is resident (the kernel maps
// code in 64 KiB windows around each page run), so every KiB of code is a KiB of memory.
let embedded: [SwiftSetting] = [.enableExperimentalFeature("Embedded"), .unsafeFlags(["-wmo", "-Xfrontend", "-function-sections"]),
                                .unsafeFlags(["-Osize"], .when(configuration: .release))]

// The sampler's code is laid out by use: its modules put each function in a section of its
// own, and the link (lld, for its --symbol-ordering-file) places the sections of the functions
// a sampler runs, listed in Sources/sysstatsd/function-order.txt, first and together. Its
// resident code then follows what it runs, not where the linker happened to put it
// (docs/performance-history.md, "The sampler's code laid out by use"); bench/order-functions.py
// makes the list again. The segments are aligned in the file as in memory (max-page-size 2 MiB,
// as gold does): the kernel maps page-cache folios whole, and a folio that straddled two of
// the code's 64 KiB windows would bring both in.
//
// The sampler's Embedded twins (SamplerEmbedded and what it imports, sysstatsd's main):
// Embedded Swift like the renderer, so the program carries only the code it calls and no
// runtime, but optimised for speed with each function in a section of its own, as above: a
// sample's CPU time is the cost goal, and the function order packs what a sample runs.
// Release builds also leave out the run-time exclusivity checks: each is a call into the
// runtime (its thread-local access set, its global page), several in each quiet sample, for
// accesses to one thread's objects. Debug builds, which the tests run, keep them, so an
// overlapping access still traps there.
let embeddedSampler: [SwiftSetting] = [.enableExperimentalFeature("Embedded"), .unsafeFlags(["-wmo", "-Xfrontend", "-function-sections"]),
                                       .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]
// The Embedded standard library's Unicode tables (libswiftUnicodeDataTables.a), which an
// Embedded program links itself when it compares or hashes Strings as Swift does (canonical
// equivalence): the history writer does (bookmark keys, names). They lie in the toolchain that
// builds, beside its Embedded standard library; `swiftc -print-target-info` says where.
func embeddedLibraryDirectory() -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swiftc", "-print-target-info"]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0,
          let info = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
          let paths = info["paths"] as? [String: Any], let resources = paths["runtimeResourcePath"] as? String,
          let target = info["target"] as? [String: Any], let triple = target["unversionedTriple"] as? String else { return nil }
    return resources + "/embedded/" + triple
}
let unicodeTables: [LinkerSetting] = [.unsafeFlags(embeddedLibraryDirectory().map { ["-L", $0] } ?? []),
                                      .linkedLibrary("swiftUnicodeDataTables"), .linkedLibrary("m")]

let functionOrder: [LinkerSetting] = [.unsafeFlags(["-use-ld=lld",
                                                    "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/sysstatsd/function-order.txt",
                                                    "-Xlinker", "--no-warn-symbol-ordering", "-Xlinker", "-z", "-Xlinker", "max-page-size=2097152"],
                                                   .when(platforms: [.linux], configuration: .release))]

// The modules compiled twice (docs/architecture.md, "Twins"): as normal Swift for the CLI
// and the tests, and as Embedded Swift for the programs, under the name + "Embedded" (a
// folder that is a symbolic link to the module's own). Each is declared once, by `twin`: the
// Embedded twin's dependencies are the same list with every twin's name mapped, so the two
// lists cannot drift, and its sources import the normal names, which `-module-alias` maps to
// the Embedded twins (no `#if` in the sources to choose an import).
let twinned = ["UTF8Text", "CommandOptions", "TOML", "Bookmarks", "SnapshotCodec", "SystemCalls", "ProcFS", "SystemDirs",
               "PrometheusText", "Sampler", "HistoryRecords", "HistoryStore", "BarCore", "BarRuntime"]

/// `name`'s Embedded twin's name, or `name` for a module compiled once (C, the programs).
func embeddedName(_ name: String) -> String { twinned.contains(name) ? name + "Embedded" : name }

/// The normal names of the twins mapped to their Embedded twins, for an Embedded module
/// (`excluding` its own name).
func moduleAliases(excluding name: String = "") -> [SwiftSetting] {
    [.unsafeFlags(twinned.filter { $0 != name }.flatMap { ["-module-alias", "\($0)=\($0)Embedded"] })]
}

/// An Embedded module's or program's dependencies, named as their normal twins.
func embeddedDependencies(_ names: [String]) -> [Target.Dependency] { names.map { .byName(name: embeddedName($0)) } }

/// The two twins of `name`: the normal module with `normal`, the Embedded one with `embedded`.
func twin(_ name: String, _ dependencies: [String] = [], normal: [SwiftSetting] = [], embedded: [SwiftSetting]) -> [Target] {
    [.target(name: name, dependencies: dependencies.map { .byName(name: $0) }, swiftSettings: normal),
     .target(name: embeddedName(name), dependencies: embeddedDependencies(dependencies),
             swiftSettings: embedded + moduleAliases(excluding: name))]
}

// Release builds link the CLI with the Swift runtime inside, so that the packages
// (install/package.sh) need nothing from a Swift toolchain at run time. No module imports
// Foundation of any kind: one import made a static link carry it whole (docs/packaging.md);
// NoFoundationTests keeps it so. Debug builds, which the unit tests run, link dynamically.
let staticStdlibCompile: [SwiftSetting] = [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))]
let staticStdlibLink: [LinkerSetting] = [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))]
// The CLI's release link also packs its relative relocations (DT_RELR, glibc 2.36: Debian 12)
// and exports no symbols: the Swift driver's --export-dynamic made every Swift symbol dynamic
// (a symbol table and strings only a backtrace read), and 42,709 RELA entries of 24 bytes each
// become a bitmap; and it folds functions whose code is the same byte for byte (lld's
// --icf=all: the specialisations and thunks generics make many times over). Swift code never
// compares functions by address (closures are not Equatable), so folding cannot change what
// it does (docs/packaging.md, "What the bytes are").
let smallerCLILink: [LinkerSetting] = [.unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                                                     "-Xlinker", "--no-export-dynamic", "-Xlinker", "--icf=all"],
                                                    .when(platforms: [.linux], configuration: .release))]

// The CLI's own code is built for size: it runs once per command, never in a bar's loop
// (docs/packaging.md, "What the bytes are").
let smallerCLICode: [SwiftSetting] = [.unsafeFlags(["-Osize"], .when(configuration: .release))]

// The normal twins of the shared modules are the CLI's (the programs link the Embedded ones,
// the tests debug builds): built for size as the CLI's own code.
let normalTwin = smallerCLICode

let vendored: [SwiftSetting] = [.unsafeFlags(["-suppress-warnings"])]

let package = Package(
    name: "sysstats",
    products: [
        .executable(name: "sysstatsd", targets: ["sysstatsd"]),
        .executable(name: "sysstatsd-history", targets: ["sysstatsd-history"]),
        .executable(name: "sysstatsd-gpu", targets: ["sysstatsd-gpu"]),
        .executable(name: "sysstatsd-audio", targets: ["sysstatsd-audio"]),
        .executable(name: "sysstatsd-media", targets: ["sysstatsd-media"]),
        .executable(name: "sysstats-spawn", targets: ["sysstats-spawn"]),
        // A memory budget inside a test suite (XCTest and Swift Testing): docs/budgets.md.
        .library(name: "MemoryBudget", targets: ["MemoryBudget"]),
        .executable(name: "sysstats", targets: ["sysstats"]),
        .executable(name: "sysstats-bar", targets: ["sysstats-bar"]),
        .executable(name: "sysstats-bar-x11", targets: ["sysstats-bar-x11"]),
        .executable(name: "sysstats-bar-wayland", targets: ["sysstats-bar-wayland"]),
    ],
    targets: [
        // Readers of /proc and /sys: one small reader per file, over a reused buffer.
        // Who may have written a config file (its command blocks run): one check for every program.
        .target(name: "CTrustedFile"),
        // The system calls every program makes on files (FileDescriptor, Errno, C paths): one
        // layer, EINTR retried in it, for the readers, the sampler, the bars and the CLI.
    ] + twin("SystemCalls", ["CDirect", "CLibc", "UTF8Text"], normal: normalTwin, embedded: embeddedSampler) + [
        // A listed part's reader fills the snapshot's readings itself (ProcFS/PartReader.swift).
    ] + twin("ProcFS", ["SystemCalls", "CDirect", "CTrustedFile", "CLibc", "SnapshotCodec", "UTF8Text"], normal: normalTwin, embedded: embeddedSampler) + [
        // The C library for the sampler's, the history writer's and the CLI's modules and both
        // their twins: headers, and inline functions for what Swift cannot call (docs/architecture.md).
        .target(name: "CLibc"),
        // pread, pwrite and renameat2 as bare system calls, and a byte copy, in the caller's own
        // code: none of glibc's pages for them (or their IFUNC table) in a sample's footprint.
        .target(name: "CDirect"),
        // UTF-8 at the byte level (decoding, controls, invisible characters), once for every
        // program; UTF8TextEmbedded is its Embedded twin (a symbolic link, like the codec's).
    ] + twin("UTF8Text", normal: normalTwin, embedded: embedded) + [
        // One table per program's command line: parses it, writes --help and the manual's
        // SYNOPSIS and OPTIONS (sysstatsd, sysstats-bar; CommandOptionsEmbedded is a symbolic link).
    ] + twin("CommandOptions", ["CLibc"], normal: normalTwin, embedded: embedded) + [
        // TOML 1.0 over bytes (dates and times refused) for config.toml: the sampler and the
        // CLI read it with TOML, the renderer with TOMLEmbedded (a symbolic link to TOML).
    ] + twin("TOML", ["UTF8Text"], normal: normalTwin, embedded: embedded) + [
        // Bookmarks: rules from process to friendly name, their file format and the resolver.
        // No Glibc: the sampler resolves names with it.
    ] + twin("Bookmarks", ["UTF8Text"], normal: normalTwin, embedded: embeddedSampler) + [
        // The snapshot contract between sampler and renderers. No dependency but UTF8Text and
        // C (its checksum, its copies), so an Embedded Swift renderer can compile the same sources.
    ] + twin("SnapshotCodec", ["UTF8Text", "CCRC32", "CDirect"], normal: normalTwin, embedded: embedded) + [
        // The snapshot's CRC-32 by carry-less multiplication where the CPU has it (x86-64).
        .target(name: "CCRC32", cSettings: [.unsafeFlags(["-ffunction-sections"], .when(configuration: .release))]),
        // What the sampler and the CLI share beyond reading /proc: the runtime directory's
        // rule, checks and lock, the environment, clocks, the [sampler] settings.
    ] + twin("SystemDirs", ["ProcFS", "SnapshotCodec", "TOML", "CLibc"], normal: normalTwin, embedded: embeddedSampler) + [
        // The snapshot in Prometheus's text format for node_exporter's textfile collector
        // (docs/fleet.md): bytes only, no Glibc, so the fuzz target links just this and the codec.
    ] + twin("PrometheusText", ["SnapshotCodec", "UTF8Text"], normal: normalTwin, embedded: embeddedSampler) + [
        // renameat2(RENAME_EXCHANGE), ppoll and SIGIO set-up, and the thread that counts a PSI
        // trigger's events: what Swift's Glibc module does not declare or the sampler keeps in C;
        // and the local time each line of its log starts with (tm_gmtoff, writev).
        .target(name: "CSamplerSys", dependencies: ["CDirect"], cSettings: [.unsafeFlags(["-ffunction-sections"], .when(configuration: .release))]),
    ] + twin("Sampler", ["CommandOptions", "SystemDirs", "ProcFS", "SnapshotCodec", "HistoryRecords", "Bookmarks", "PrometheusText",
                         "CSamplerSys", "CDirect", "CLibc"], normal: normalTwin, embedded: embeddedSampler) + [
        .executableTarget(name: "sysstatsd", dependencies: embeddedDependencies(["Sampler", "SnapshotCodec", "CommandOptions", "CLibc"]),
                          exclude: ["function-order.txt"], swiftSettings: embeddedSampler + moduleAliases(),
                          linkerSettings: staticExecutable + functionOrder),

        // libsqlite3's C API (pkg-config sqlite3): Debian's, linked dynamically by the history
        // writer and the CLI (docs/history.md, "Linking").
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // History in SQLite: the one owner of the schema, its migrations, retention, backup and
        // restore. No Foundation. Not linked into sysstatsd: SQLite's code pages alone would
        // break its memory budget (docs/performance.md).
    ] + twin("HistoryStore", ["CSQLite", "ProcFS", "SnapshotCodec", "HistoryRecords", "Bookmarks", "CLibc"], normal: normalTwin, embedded: embedded) + [
        // What the sampler keeps for history and hands to the writer: records, the minute
        // rollup, and the batch encoding. No SQLite, no Glibc.
    ] + twin("HistoryRecords", ["ProcFS", "SnapshotCodec", "CLibc"], normal: normalTwin, embedded: embeddedSampler) + [
        // The short-lived writer the sampler starts once a minute: one batch on stdin → the database.
        .executableTarget(name: "sysstatsd-history", dependencies: embeddedDependencies(["HistoryStore", "ProcFS", "SnapshotCodec", "CommandOptions", "CLibc"]),
                          swiftSettings: embedded + moduleAliases(), linkerSettings: unicodeTables),

        // The NVIDIA helper the sampler starts where NVML is needed: it loads libnvidia-ml.so.1,
        // which the static sampler must not, and writes NVML's figures on a pipe. In C: it
        // only calls a C library; its executable is Embedded Swift, whose link names no
        // Swift runtime library (a normal Swift executable's names libswiftCore.so).
        .target(name: "CGPUHelper", dependencies: ["CLibc"], cSettings: [.define("SYSSTATS_VERSION", to: "\"\(sysstatsVersion)\"")],
                linkerSettings: [.linkedLibrary("dl")]),
        .executableTarget(name: "sysstatsd-gpu", dependencies: ["CGPUHelper"], swiftSettings: embedded),
        // The sound helper, the same way for libpulse (and libasound where no sound server
        // answers): the sampler starts it while a volume or microphone block shows, the bar
        // runs it for a wheel or a click on one.
        .target(name: "CAudioHelper", dependencies: ["CLibc"], cSettings: [.define("SYSSTATS_VERSION", to: "\"\(sysstatsVersion)\"")],
                linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("m")]),
        .executableTarget(name: "sysstatsd-audio", dependencies: ["CAudioHelper"], swiftSettings: embedded),
        // The media helper, the same way for libsystemd's sd-bus: the sampler starts it while a
        // media block shows, the bar runs it for a click on one.
        .target(name: "CMediaHelper", dependencies: ["CLibc"],
                cSettings: [.define("SYSSTATS_VERSION", to: "\"\(sysstatsVersion)\"")],
                linkerSettings: [.linkedLibrary("dl")]),
        .executableTarget(name: "sysstatsd-media", dependencies: ["CMediaHelper"], swiftSettings: embedded),

        // prctl(PR_SET_CHILD_SUBREAPER) and posix_spawn for `sysstats measure` (docs/budgets.md).
        .target(name: "CMeasureSys"),
        // The small parent `measure` forks its command from, so that the command's kernel peak
        // RSS (wait4) does not include a copy of sysstats. In C, with an Embedded Swift main,
        // as the NVIDIA helper.
        // What a closure costs in memory in the test's own process, from the kernel's figures.
        .target(name: "MemoryBudget"),
        .target(name: "CSpawnHelper", dependencies: ["CLibc"], cSettings: [.define("SYSSTATS_VERSION", to: "\"\(sysstatsVersion)\"")]),
        .executableTarget(name: "sysstats-spawn", dependencies: ["CSpawnHelper"], swiftSettings: embedded),
        // BarCore (the normal twin): `history --png` draws with the panel's code and PNG encoder.
        .target(name: "SysstatsCLI", dependencies: [
            "SnapshotCodec", "SystemDirs", "ProcFS", "HistoryStore", "Bookmarks", "BarCore", "TOML", "UTF8Text", "CMeasureSys",
            "ArgumentParser", "JSONCoding", "ConfigImport",
        ], swiftSettings: staticStdlibCompile + smallerCLICode),
        // `sysstats config import`: i3status, i3status-rust, waybar and polybar configs read as
        // those programs read them, and written as config.toml (the CLI's alone).
        .target(name: "ConfigImport", dependencies: ["TOML"], swiftSettings: staticStdlibCompile + smallerCLICode),
        // The command line's JSON: a writer of Encodable values (what JSONEncoder wrote) and a
        // strict parser, without Foundation; the vendored ArgumentParser's help dump uses it too.
        // Optimised in debug builds too: the tests write years of history as JSON through it.
        .target(name: "JSONCoding", swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        // swift-argument-parser 1.8.2, vendored with one change: no FoundationEssentials, which
        // its one import made every static link carry whole (Vendor/swift-argument-parser/
        // README.sysstats.md). generate-manual and its plugin serve scripts/generate-manual.sh.
        // Its own deprecation warnings stay quiet, as a dependency's would.
        .target(name: "ArgumentParserToolInfo", path: "Vendor/swift-argument-parser/Sources/ArgumentParserToolInfo", swiftSettings: vendored),
        .target(name: "ArgumentParser", dependencies: ["ArgumentParserToolInfo", "JSONCoding"],
                path: "Vendor/swift-argument-parser/Sources/ArgumentParser", swiftSettings: vendored),
        .executableTarget(name: "generate-manual", dependencies: ["ArgumentParser", "ArgumentParserToolInfo"],
                          path: "Vendor/swift-argument-parser/Tools/generate-manual", swiftSettings: vendored),
        .plugin(name: "GenerateManual",
                capability: .command(intent: .custom(verb: "generate-manual", description: "Generate a manual entry for a specified target.")),
                dependencies: ["generate-manual"], path: "Vendor/swift-argument-parser/Plugins/GenerateManual"),
        .executableTarget(name: "sysstats", dependencies: ["SysstatsCLI"], swiftSettings: staticStdlibCompile,
                          linkerSettings: staticStdlibLink + smallerCLILink),

        // sysstats-bar: blocks, outputs and click parsing in BarCore (pure, no Glibc);
        // the event loop in BarRuntime over a C shim (Embedded Swift cannot import Glibc).
        // The time block's strftime and time zones (libc's, which Embedded Swift cannot import).
        .target(name: "CClock"),
    ] + twin("BarCore", ["SnapshotCodec", "UTF8Text", "TOML", "CClock", "CommandOptions"], normal: normalTwin, embedded: embedded) + [
        .target(name: "CBarSys", dependencies: ["CLibc"]),
    ] + twin("BarRuntime", ["BarCore", "SnapshotCodec", "SystemCalls", "CBarSys", "CClock", "CTrustedFile", "CLibc", "CommandOptions"], embedded: embedded) + [
        .executableTarget(name: "sysstats-bar", dependencies: embeddedDependencies(["BarRuntime", "BarCore", "CBarSys"]),
                          swiftSettings: embedded + moduleAliases(), linkerSettings: staticExecutable),
        // The X11 outputs (x11-root, x11-window) get their own binary so that text/i3bar do not
        // pay for an X library; `sysstats-bar --output x11-root|x11-window` execs it. It speaks
        // X through libxcb, not Xlib: Xlib's pages cost ~0.4 MB more resident memory.
        .target(name: "CBarX11", linkerSettings: [.linkedLibrary("xcb")]),
        .executableTarget(name: "sysstats-bar-x11", dependencies: embeddedDependencies(["BarRuntime", "BarCore", "CBarSys", "CBarX11", "SnapshotCodec"]),
                          swiftSettings: embedded + moduleAliases()),
        // The Wayland panel (wayland-panel) in a binary of its own, as the X11 outputs are:
        // only it links libwayland-client; `sysstats-bar --output wayland-panel|panel` execs it.
        .target(name: "CBarWayland", linkerSettings: [.linkedLibrary("wayland-client")]),
        .executableTarget(name: "sysstats-bar-wayland", dependencies: embeddedDependencies(["BarRuntime", "BarCore", "CBarSys", "CBarWayland", "SnapshotCodec"]),
                          swiftSettings: embedded + moduleAliases()),
        .testTarget(name: "BarCoreTests", dependencies: ["BarCore", "SnapshotCodec", "CommandOptions", "TestSupport"], exclude: ["Golden"]),
        // The event loop's parts in-process: commands, stopped groups, deadlines, the loop's updates.
        .testTarget(name: "BarRuntimeTests", dependencies: ["BarRuntime", "BarCore", "SnapshotCodec", "CBarSys", "CSamplerSys", "CommandOptions",
                                                            "AllocationCounter"]),
        // Runs the built sysstats-bar (release by default, for the memory budget).
        .testTarget(name: "BarEndToEndTests", dependencies: ["SnapshotCodec", "CSamplerSys"]),

        .testTarget(name: "CommandOptionsTests", dependencies: ["CommandOptions"]),
        .testTarget(name: "ProcFSTests", dependencies: ["ProcFS", "SnapshotCodec", "AllocationCounter", "TestSupport"]),
        .testTarget(name: "BookmarksTests", dependencies: ["Bookmarks", "AllocationCounter", "TestSupport"]),
        .testTarget(name: "SnapshotCodecTests", dependencies: ["SnapshotCodec", "TestSupport"], exclude: ["Golden"]),
        .testTarget(name: "TOMLTests", dependencies: ["TOML", "TestSupport", "MemoryBudget"]),
        .testTarget(name: "ConfigImportTests", dependencies: ["ConfigImport", "TOML"], exclude: ["Golden"]),
        .testTarget(name: "MemoryBudgetTests", dependencies: ["MemoryBudget"]),
        // Counts heap allocations in the test process, for "a steady-state update allocates nothing".
        .target(name: "AllocationCounter", path: "Tests/AllocationCounter"),
        // Fixture paths, temporary directories and live fixture trees, shared by the test targets.
        .target(name: "TestSupport", dependencies: ["CommandOptions"], path: "Tests/TestSupport"),
        .testTarget(name: "SamplerTests", dependencies: ["Sampler", "CommandOptions", "ProcFS", "SnapshotCodec", "PrometheusText", "AllocationCounter", "TestSupport"],
                    exclude: ["Golden"]),
        .testTarget(name: "HistoryRecordsTests", dependencies: ["HistoryRecords", "SnapshotCodec", "AllocationCounter"]),
        .testTarget(name: "HistoryStoreTests", dependencies: ["HistoryStore", "SnapshotCodec", "TestSupport"],
                    exclude: ["Golden"]),
        .testTarget(name: "SysstatsCLITests", dependencies: ["SysstatsCLI", "SnapshotCodec", "Bookmarks", "HistoryStore", "BarCore", "TestSupport",
                                                    "ArgumentParser", "JSONCoding", "ConfigImport", "SystemDirs", "TOML"],
                    exclude: ["Golden"]),
        // Run the built programs (release binaries for the memory budgets).
        .testTarget(name: "EndToEndTests", dependencies: ["SnapshotCodec", "HistoryStore", "Bookmarks", "TestSupport"]),
    ]
)
