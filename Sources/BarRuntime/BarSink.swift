// Where the rendered updates go, and what the loop asks of it besides: the descriptor it
// polls and, while the sink's writes wait for the other end, POLLOUT and a wake-up.

import BarCore
import CBarSys

/// Where the rendered updates go: stdout, an X11 root window name, a PNG file, a window of its own.
///
/// Text outputs get ``show(_:)``; image outputs (``OutputKind/isImage``) get
/// ``showImage(_:)`` with the panel redrawn once per snapshot (and after a click).
public protocol BarSink {
    /// A descriptor the event loop polls besides its own (the X connection), or -1.
    var pollFD: Int32 { get }
    /// Shows one rendered update. Returns 0, or the errno that stopped it (EPIPE: the bar is gone).
    mutating func show(_ line: [UInt8]) -> Int32
    /// Shows the redrawn panel image. Returns 0, or the errno that stopped it.
    /// The image is the renderer's own: copy the pixels to keep them (an X11 sink
    /// keeps a server-side pixmap for exposes).
    mutating func showImage(_ image: PanelImage) -> Int32
    /// Called when ``pollFD`` is readable. Returns the mouse button of a click on the
    /// panel (1 left, 3 right; the loop cycles the graph form and redraws), or 0;
    /// the loop calls it again after a click until it returns 0 (one click per call).
    /// ``sinkClosed`` or ``sinkDestroyed`` end the bar (status 0 or 1).
    mutating func handleEvents() -> Int
    /// True when events wait in the sink's own queue that poll() on ``pollFD`` would not
    /// report: an X library reads the socket while it writes. Makes no system call.
    mutating func hasQueuedEvents() -> Bool
    /// What poll() waits for on ``pollFD``: POLLIN, and POLLOUT too while what the sink
    /// wrote waits for the other end to read it (``WriteStall``), so that the rest goes when
    /// it can, without the loop spinning on EAGAIN. ``handleEvents()`` is called for either.
    var pollEvents: Int16 { get }
    /// While the sink's writes wait: the milliseconds left before it gives up on the other
    /// end. The loop wakes then and calls ``handleEvents()``, which ends the bar; nil when
    /// nothing waits. Makes no system call but reading a clock.
    var writeWaitMs: UInt64? { get }
}

extension BarSink {
    /// Text sinks show no image.
    public mutating func showImage(_ image: PanelImage) -> Int32 { ENOTSUP }
    /// Sinks without a queue of their own have nothing waiting.
    public mutating func hasQueuedEvents() -> Bool { false }
    /// Sinks whose writes never wait on a peer poll for input only.
    public var pollEvents: Int16 { Int16(POLLIN) }
    public var writeWaitMs: UInt64? { nil }
}

/// What ``BarSink/handleEvents()`` returns when its window was closed: the bar ends, status 0.
public let sinkClosed = -1
/// What ``BarSink/handleEvents()`` returns when its window was destroyed: the bar ends, status 1.
public let sinkDestroyed = -2

/// Writes each update to stdout with one write().
public struct StdoutSink: BarSink {
    public init() {}
    public var pollFD: Int32 { -1 }
    public mutating func show(_ line: [UInt8]) -> Int32 { line.withUnsafeBytes { writeAll(1, $0) } }
    public mutating func handleEvents() -> Int { 0 }
}
