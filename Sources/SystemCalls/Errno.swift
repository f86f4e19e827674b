import CLibc

/// An error number from a failed system call, as `errno` reported it.
public struct Errno: Error, Equatable, CustomStringConvertible {
    public var rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The value of `errno` right now.
    public static var current: Errno { Errno(rawValue: clibc_errno()) }

    public static let noSuchFile = Errno(rawValue: ENOENT)
    public static let permissionDenied = Errno(rawValue: EACCES)
    public static let noSuchProcess = Errno(rawValue: ESRCH)

    public var description: String { String(cString: strerror(rawValue)) }
}
