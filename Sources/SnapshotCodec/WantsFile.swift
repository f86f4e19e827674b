/// A renderer's `wants/<pid>` file in the runtime directory: what it asks of the sampler
/// (written by `sysstats-bar`, read by the sampler; docs/snapshot-format.md, "What renderers
/// show"). The first line is the decimal value of the ``SnapshotSections`` bits its blocks
/// show; each further line names something its blocks need measured that the sampler may
/// not measure by default: `disk PATH`, `sensor NAME`, `net IFACE`, and `top gpu` for the
/// processes using the GPUs.
public struct RendererRequest: Equatable, Sendable {
    /// The longest file the sampler reads.
    public static let maximumFileSize = 2048
    /// At most this many of each kind are kept (the snapshot's own limits).
    public static let maximumNames = 8
    /// A name's longest form: a mount point as the snapshot keeps it.
    public static let maximumNameLength = Snapshot.maximumPathLength

    public var parts: SnapshotSections
    /// Mount points, sensors (chip/label, chip or label) and interfaces, in the order asked,
    /// without repeats.
    public var disks: [[UInt8]] = []
    public var sensors: [[UInt8]] = []
    public var interfaces: [[UInt8]] = []
    /// The processes using the GPUs most are asked for (``Snapshot/topGPU``; `top:gpu`).
    public var gpuClients = false

    public init(parts: SnapshotSections) { self.parts = parts }

    /// Whether it names nothing but parts.
    public var namesNothing: Bool { disks.isEmpty && sensors.isEmpty && interfaces.isEmpty && !gpuClients }

    /// Adds `name` to `kind`'s list unless it is there already, empty, too long, holds a
    /// control byte, or the list is full. True when added.
    @discardableResult
    public mutating func ask(_ kind: Kind, _ name: [UInt8]) -> Bool {
        guard RendererRequest.isName(name) else { return false }
        switch kind {
        case .disk:
            guard RendererRequest.isMountPath(name) else { return false }
            return RendererRequest.add(name, to: &disks)
        case .sensor: return RendererRequest.add(name, to: &sensors)
        case .interface: return RendererRequest.add(name, to: &interfaces)
        case .top:
            // `top gpu`: the GPU clients, which need the GPUs measured (NVIDIA's through the helper).
            guard name == Kind.gpuWord, !gpuClients else { return false }
            gpuClients = true
            parts.insert(.gpu)
            return true
        }
    }

    /// The union with `other` (each list still capped).
    public mutating func merge(_ other: RendererRequest) {
        parts = parts.union(other.parts)
        for n in other.disks { ask(.disk, n) }
        for n in other.sensors { ask(.sensor, n) }
        for n in other.interfaces { ask(.interface, n) }
        if other.gpuClients { ask(.top, Kind.gpuWord) }
    }

    /// What a request line names.
    public enum Kind: Sendable {
        case disk, sensor, interface, top
        static let gpuWord: [UInt8] = [0x67, 0x70, 0x75]   // gpu

        var keyword: [UInt8] {
            switch self {
            case .disk: [0x64, 0x69, 0x73, 0x6B]             // disk
            case .sensor: [0x73, 0x65, 0x6E, 0x73, 0x6F, 0x72]   // sensor
            case .interface: [0x6E, 0x65, 0x74]              // net
            case .top: [0x74, 0x6F, 0x70]                    // top
            }
        }
    }

    /// Parses a wants file. The first line must be one to ten decimal digits of a value up to
    /// `UInt32.max` (bits this version does not know are dropped), else nil. Of the lines
    /// after it, those of a kind this version does not know, and bad names, are passed over:
    /// a newer renderer's file still counts.
    public init?(wantsFile text: UnsafeRawBufferPointer) {
        guard !text.isEmpty, text.count <= RendererRequest.maximumFileSize else { return nil }
        var end = 0
        while end < text.count && text[end] != 0x0A { end += 1 }
        guard end > 0, end <= 10 else { return nil }
        var value: UInt64 = 0
        for i in 0..<end {
            let b = text[i]
            guard b >= 0x30, b <= 0x39 else { return nil }
            value = value * 10 + UInt64(b - 0x30)
        }
        guard value <= UInt64(UInt32.max) else { return nil }
        self.init(parts: SnapshotSections(rawValue: UInt32(value)).intersection(.all))
        var start = end + 1
        while start < text.count {
            var stop = start
            while stop < text.count && text[stop] != 0x0A { stop += 1 }
            takeLine(UnsafeRawBufferPointer(rebasing: text[start..<stop]))
            start = stop + 1
        }
    }

    private mutating func takeLine(_ line: UnsafeRawBufferPointer) {
        for kind in [Kind.disk, .sensor, .interface, .top] {
            let keyword = kind.keyword
            guard line.count > keyword.count, line[keyword.count] == 0x20 else { continue }
            var same = true
            for i in 0..<keyword.count where line[i] != keyword[i] { same = false }
            guard same else { continue }
            ask(kind, Array(line[(keyword.count + 1)...]))
            return
        }
    }

    /// The file's text, as sysstats-bar writes it.
    public var wantsFileText: [UInt8] {
        var text = parts.wantsFileText
        for (kind, names) in [(Kind.disk, disks), (.sensor, sensors), (.interface, interfaces), (.top, gpuClients ? [Kind.gpuWord] : [])] {
            for name in names {
                text.append(contentsOf: kind.keyword)
                text.append(0x20)
                text.append(contentsOf: name)
                text.append(0x0A)
            }
        }
        return text
    }

    static func isName(_ name: [UInt8]) -> Bool {
        guard !name.isEmpty, name.count <= maximumNameLength else { return false }
        for b in name where b < 0x20 || b == 0x7F { return false }
        return true
    }

    /// A mount point as the config takes one: absolute, with no `.` or `..` component (a
    /// wants file from anyone else's hand must not send the sampler's statvfs elsewhere).
    static func isMountPath(_ name: [UInt8]) -> Bool {
        guard name.first == 0x2F else { return false }
        var start = 1
        while start <= name.count {
            var end = start
            while end < name.count && name[end] != 0x2F { end += 1 }
            let length = end - start
            if length == 1 && name[start] == 0x2E { return false }
            if length == 2 && name[start] == 0x2E && name[start + 1] == 0x2E { return false }
            start = end + 1
        }
        return true
    }

    static func add(_ name: [UInt8], to list: inout [[UInt8]]) -> Bool {
        guard list.count < maximumNames else { return false }
        for n in list where n == name { return false }
        list.append(name)
        return true
    }
}

extension SnapshotSections {
    /// The first line of a wants file: these parts in decimal, then a newline.
    public var wantsFileText: [UInt8] {
        var digits: [UInt8] = []
        var v = rawValue
        repeat {
            digits.append(0x30 + UInt8(v % 10))
            v /= 10
        } while v > 0
        var text: [UInt8] = []
        var i = digits.count
        while i > 0 { i -= 1; text.append(digits[i]) }
        text.append(0x0A)
        return text
    }
}
