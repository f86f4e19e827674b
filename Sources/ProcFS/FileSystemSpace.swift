import CLibc

/// The space of one mounted file system, in KiB, as `df -k` prints it.
public struct FileSystemUsage: Equatable, Sendable {
    /// Size (`f_blocks`).
    public var totalKiB: UInt64 = 0
    /// Used: blocks that are not free (`f_blocks − f_bfree`), root's reserve excluded.
    public var usedKiB: UInt64 = 0
    /// Available to unprivileged users (`f_bavail`).
    public var availableKiB: UInt64 = 0
    /// `df`'s Use%: used / (used + available), rounded up, in hundredths of a percent
    /// (0…10000); 0 when used + available is 0 (a pseudo file system, where df prints "-").
    public var usedPermyriad: UInt16 = 0
    public init() {}
    public init(totalKiB: UInt64, usedKiB: UInt64, availableKiB: UInt64, usedPermyriad: UInt16) {
        self.totalKiB = totalKiB; self.usedKiB = usedKiB
        self.availableKiB = availableKiB; self.usedPermyriad = usedPermyriad
    }
}

/// Measures the file system a path is on with `statvfs(3)`.
///
/// Nothing is kept open: a descriptor on the mount point would stop it being unmounted.
/// The path is kept as a C string made once, so an update allocates nothing. Like df,
/// a call may block while a network file system does not answer.
public final class FileSystemSpace {
    /// The path given at init (a mount point, or any path on the file system).
    public let path: String
    private let cPath: [CChar]
    /// The last successful reading.
    public private(set) var reading = FileSystemUsage()
    /// Whether the last update failed because nothing is at the path (ENOENT, ENOTDIR).
    public private(set) var isMissing = false

    public init(path: String) {
        self.path = path
        cPath = nulTerminated(path)
    }

    /// Measures the file system now; nil when `statvfs` fails (the path is gone, not
    /// searchable, or holds a NUL).
    public func update() -> FileSystemUsage? {
        var info = statvfs()
        let result = cPath.withUnsafeBufferPointer { p -> Int32 in
            guard let base = p.baseAddress, strlen(base) + 1 == p.count else { return -1 }
            return statvfs(base, &info)
        }
        isMissing = result != 0 && (clibc_errno() == ENOENT || clibc_errno() == ENOTDIR)
        guard result == 0 else { return nil }
        // Some file systems leave the fragment size 0; df then uses the block size.
        let frsize = info.f_frsize != 0 ? UInt64(info.f_frsize) : UInt64(info.f_bsize)
        reading = Self.compute(blocks: UInt64(info.f_blocks), bfree: UInt64(info.f_bfree),
                               bavail: UInt64(info.f_bavail), frsize: frsize)
        return reading
    }

    /// The figures df derives from `statvfs` fields: sizes rounded up to whole KiB
    /// (df's default rounding), used = blocks − bfree (0 if bfree exceeds blocks), and
    /// Use% = ⌈used × 100 / (used + bavail)⌉ kept to hundredths, all saturating.
    public static func compute(blocks: UInt64, bfree: UInt64, bavail: UInt64, frsize: UInt64) -> FileSystemUsage {
        let usedBlocks = blocks >= bfree ? blocks - bfree : 0
        var usage = FileSystemUsage()
        usage.totalKiB = kibibytes(blocks, frsize)
        usage.usedKiB = kibibytes(usedBlocks, frsize)
        usage.availableKiB = kibibytes(bavail, frsize)
        usage.usedPermyriad = permyriad(used: usedBlocks, available: bavail)
        return usage
    }

    /// ⌈count × size / 1024⌉, saturating.
    private static func kibibytes(_ count: UInt64, _ size: UInt64) -> UInt64 {
        let product = count.multipliedFullWidth(by: size)
        guard product.high < 1024 else { return .max }
        let (q, r) = UInt64(1024).dividingFullWidth(product)
        return r == 0 || q == .max ? q : q + 1
    }

    /// ⌈used × 10000 / (used + available)⌉; 0 when both are 0.
    private static func permyriad(used: UInt64, available: UInt64) -> UInt16 {
        var (used, available) = (used, available)
        // A sum past 64 bits: halve both (the ratio barely moves at that size).
        while used.addingReportingOverflow(available).overflow { used >>= 1; available >>= 1 }
        let whole = used + available
        guard whole > 0 else { return 0 }
        // used ≤ whole, so the quotient is at most 10000 and fits.
        let (q, r) = whole.dividingFullWidth(used.multipliedFullWidth(by: 10_000))
        return UInt16(clamping: r == 0 ? q : q + 1)
    }
}

/// The path as C bytes (this module's cPath, named apart from the property it fills).
private func nulTerminated(_ path: String) -> [CChar] { cPath(path) }
