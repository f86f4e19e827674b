import SnapshotCodec

// The registry of blocks: adding one is a file in this folder with its `descriptor`, a
// constant here and its descriptor in the table below (in the same place), its test and its
// row in docs/renderer.md. A listed part's block (fan, power) is made from its table
// (``ListedBlock``) and needs none of that. Nothing else switches over the kinds.

/// The blocks `--blocks` can name, in the order they are listed: the blocks with a file of
/// their own, then one per listed part (``ListedPart/all``), then `command`.
public struct BlockKind: Hashable, Sendable {
    public let rawValue: UInt8
    init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let cpu = BlockKind(rawValue: 0), mem = BlockKind(rawValue: 1), load = BlockKind(rawValue: 2)
    public static let uptime = BlockKind(rawValue: 3), battery = BlockKind(rawValue: 4), procs = BlockKind(rawValue: 5)
    public static let exited = BlockKind(rawValue: 6), selfCost = BlockKind(rawValue: 7), top = BlockKind(rawValue: 8)
    public static let swap = BlockKind(rawValue: 9), cores = BlockKind(rawValue: 10), net = BlockKind(rawValue: 11)
    public static let wifi = BlockKind(rawValue: 12), disk = BlockKind(rawValue: 13), diskio = BlockKind(rawValue: 14)
    public static let temp = BlockKind(rawValue: 15), freq = BlockKind(rawValue: 16), time = BlockKind(rawValue: 17)
    public static let pressure = BlockKind(rawValue: 18), gpu = BlockKind(rawValue: 19)
    public static let runWatch = BlockKind(rawValue: 20), pathExists = BlockKind(rawValue: 21), readFile = BlockKind(rawValue: 22)
    /// A command's output (config file only: `block = "command"`): after every other kind.
    public static let command = BlockKind(rawValue: UInt8(descriptors.count - 1))

    /// The block of `tag`'s listed part (``ListedBlock``).
    public static func listed(_ tag: SectionTag) -> BlockKind? {
        guard let i = ListedPart.index(of: tag) else { return nil }
        return BlockKind(rawValue: UInt8(ownFiles.count + i))
    }

    /// The kinds with a file of their own, in the order of their constants (a test checks it).
    private static let ownFiles: [BlockDescriptor] = [
        CPUBlock.descriptor, MemBlock.descriptor, LoadBlock.descriptor, UptimeBlock.descriptor,
        BatteryBlock.descriptor, ProcsBlock.descriptor, ExitedBlock.descriptor, SelfBlock.descriptor,
        TopBlock.descriptor, SwapBlock.descriptor, CoresBlock.descriptor, NetBlock.descriptor,
        WifiBlock.descriptor, DiskBlock.descriptor, DiskIOBlock.descriptor, TempBlock.descriptor,
        FreqBlock.descriptor, TimeBlock.descriptor, PressureBlock.descriptor, GPUBlock.descriptor,
        RunWatchBlock.descriptor, PathExistsBlock.descriptor, ReadFileBlock.descriptor,
    ]

    /// Every kind's descriptor, in the order of their raw values.
    private static let descriptors: [BlockDescriptor] =
        ownFiles + ListedPart.all.map(ListedBlock.descriptor) + [CommandBlockOutput.descriptor]

    /// Every kind, in the order they are listed.
    public static let allCases: [BlockKind] = (0..<descriptors.count).map { BlockKind(rawValue: UInt8($0)) }

    /// What the block is (its file's `descriptor`).
    public var descriptor: BlockDescriptor { Self.descriptors[Int(rawValue)] }

    /// The block's name in `--blocks`, i3bar's `name`/`instance` and click events.
    public var name: StaticString { descriptor.name }

    /// The block named by `bytes`, or nil.
    public init?(name bytes: ArraySlice<UInt8>) {
        let all = BlockKind.allCases
        for i in 0..<all.count where bytesEqual(bytes, all[i].name) {
            let kind = all[i]
            self = kind
            return
        }
        return nil
    }

    /// The blocks shown when neither `--blocks` nor the config file names any: i3status's
    /// default bar (network, disk, load, memory, time) with cpu, temperature, the GPU, the
    /// backlight, the volume and exits.
    public static let defaults: [BlockKind] = [.wifi, .net, .disk, .load, .mem, .exited, .cpu, .temp, .gpu,
                                                listed(.backlight)!, listed(.volume)!, .battery, .time]

    /// The part of the snapshot the block shows; when it was not measured the block says `n/a`.
    public var section: SnapshotSections { descriptor.section }

    /// The parts of the snapshot a bar of `blocks` shows: what it asks the sampler to
    /// measure every interval (the rest it measures less often; docs/snapshot-format.md,
    /// "What renderers show").
    public static func sectionsShown(by blocks: [BarBlock]) -> SnapshotSections {
        var shown: SnapshotSections = []
        for i in 0..<blocks.count {
            shown.formUnion(blocks[i].kind.section)
            if let also = blocks[i].kind.descriptor.argumentShows { shown.formUnion(also(blocks[i].argument)) }
            if let f = blocks[i].format { shown.formUnion(f.alsoShows) }
            if let f = blocks[i].shortFormat { shown.formUnion(f.alsoShows) }
        }
        return shown
    }

    /// What `blocks` ask of the sampler: their parts, and the mounts, sensors and interfaces
    /// their arguments name (a renderer's wants file).
    public static func request(of blocks: [BarBlock]) -> RendererRequest {
        var request = RendererRequest(parts: sectionsShown(by: blocks))
        for i in 0..<blocks.count {
            if let kind = blocks[i].kind.descriptor.asks, !blocks[i].argument.isEmpty { request.ask(kind, blocks[i].argument) }
        }
        return request
    }

    /// True for the blocks drawn from the snapshot: they give way to a message (`sysstatsd
    /// stopped`) when there is no current one. The clock does not.
    public var needsSnapshot: Bool { descriptor.render != nil }

    /// False for the blocks only the config file defines (command): `--blocks`, `--help`'s
    /// list and the completions leave them out.
    public var isNamedInBlocksOption: Bool { descriptor.source != .command }

    /// True for a block drawn from the renderer's clock (time): a strftime(3) format, a zone.
    public var isClock: Bool { descriptor.source == .clock }

    /// True for a block that shows a command's output.
    public var runsCommand: Bool { descriptor.source == .command }

    /// True for the blocks that take an argument in `--blocks` (`time:Europe/Paris`,
    /// `disk:/home`): those with an argument key in the config file.
    public var takesArgument: Bool { descriptor.argumentKey != nil }

    /// What the block looks at on the file system before each update (run_watch, path_exists,
    /// read_file: the program looks, the block formats); nil for the others. Such a block
    /// needs its argument, a path.
    public var fileCheck: FileCheck? { descriptor.fileCheck }
}
