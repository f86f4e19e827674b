#if hasFeature(Embedded)
import SnapshotCodecEmbedded
#else
import SnapshotCodec
#endif

// The registry of blocks: adding one is a file in this folder with its `descriptor`, a case
// here and its descriptor in the table below (in the same place), its test and its row in
// docs/renderer.md. Nothing else switches over the kinds.

/// The blocks `--blocks` can name, in the order they are listed.
public enum BlockKind: UInt8, Sendable, CaseIterable {
    case cpu, mem, load, uptime, battery, procs, exited, selfCost, top, swap, cores
    case net, wifi, disk, diskio, temp, freq, time, pressure, gpu
    /// A command's output (config file only: `block = "command"`).
    case command

    /// Every kind's descriptor, in the order of the cases (a test checks it).
    private static let descriptors: [BlockDescriptor] = [
        CPUBlock.descriptor, MemBlock.descriptor, LoadBlock.descriptor, UptimeBlock.descriptor,
        BatteryBlock.descriptor, ProcsBlock.descriptor, ExitedBlock.descriptor, SelfBlock.descriptor,
        TopBlock.descriptor, SwapBlock.descriptor, CoresBlock.descriptor, NetBlock.descriptor,
        WifiBlock.descriptor, DiskBlock.descriptor, DiskIOBlock.descriptor, TempBlock.descriptor,
        FreqBlock.descriptor, TimeBlock.descriptor, PressureBlock.descriptor, GPUBlock.descriptor,
        CommandBlockOutput.descriptor,
    ]

    /// What the block is (its file's `descriptor`).
    public var descriptor: BlockDescriptor { Self.descriptors[Int(rawValue)] }

    /// The block's name in `--blocks`, i3bar's `name`/`instance` and click events.
    public var name: StaticString { descriptor.name }

    /// The block named by `bytes`, or nil.
    public init?(name bytes: ArraySlice<UInt8>) {
        for kind in BlockKind.allCases where bytesEqual(bytes, kind.name) {
            self = kind
            return
        }
        return nil
    }

    /// The blocks shown when neither `--blocks` nor the config file names any: i3status's
    /// default bar (network, disk, load, memory, time) with cpu, temperature, the GPU and exits.
    public static let defaults: [BlockKind] = [.wifi, .net, .disk, .load, .mem, .exited, .cpu, .temp, .gpu, .battery, .time]

    /// The part of the snapshot the block shows; when it was not measured the block says `n/a`.
    public var section: SnapshotSections { descriptor.section }

    /// The parts of the snapshot a bar of `blocks` shows: what it asks the sampler to
    /// measure every interval (the rest it measures less often; docs/snapshot-format.md,
    /// "What renderers show").
    public static func sectionsShown(by blocks: [BarBlock]) -> SnapshotSections {
        var shown: SnapshotSections = []
        for i in 0..<blocks.count { shown.formUnion(blocks[i].kind.section) }
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
}
