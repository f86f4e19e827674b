// A sink's writes waiting for the other end to read them: a Wayland compositor that stopped
// reading fills its socket, and every flush then says EAGAIN.

/// How long a sink's writes have waited, and whether that is over the limit. While they
/// wait, the sink asks poll() for POLLOUT (``BarSink/pollEvents``) and sends the rest when
/// it comes, and queues nothing new: libwayland ends the connection when its own buffer
/// overflows, which the panel used to report as "the compositor closed the connection" with
/// status 0. The loop wakes when the limit runs out (``BarSink/writeWaitMs``) and the sink
/// ends the bar with one line. Pure, so that its decisions are tested with a fake flush:
/// the sink says after each call that may have flushed whether writes wait, and when.
public struct WriteStall: Equatable {
    public enum Outcome: Equatable {
        /// Nothing waits (the last flush sent everything).
        case clear
        /// Writes wait, for less than the limit.
        case waiting
        /// Writes have waited the whole limit: the other end stopped reading.
        case stalled
    }

    /// Ten seconds: far beyond a busy compositor's pause, short enough that a panel whose
    /// compositor hangs says so instead of sitting there.
    public static let defaultLimitMs: UInt64 = 10_000

    /// How long writes may wait before ``note(waiting:nowMs:)`` says ``Outcome/stalled``.
    public let limitMs: UInt64
    /// When the writes started to wait (monotonic ms); nil while nothing waits.
    public private(set) var sinceMs: UInt64? = nil

    public init(limitMs: UInt64 = WriteStall.defaultLimitMs) { self.limitMs = limitMs }

    /// Whether writes wait (the sink polls for POLLOUT meanwhile).
    public var isWaiting: Bool { sinceMs != nil }

    /// After a call that may have flushed: `waiting` when something is left unsent (EAGAIN),
    /// at `nowMs` (monotonic). The wait is counted from its first EAGAIN; a flush that sends
    /// everything ends it.
    @discardableResult
    public mutating func note(waiting: Bool, nowMs: UInt64) -> Outcome {
        guard waiting else {
            sinceMs = nil
            return .clear
        }
        let since = sinceMs ?? nowMs
        sinceMs = since
        return nowMs >= since && nowMs - since >= limitMs ? .stalled : .waiting
    }

    /// The milliseconds left of the limit at `nowMs` (0 once it has run out); nil while
    /// nothing waits.
    public func remainingMs(nowMs: UInt64) -> UInt64? {
        guard let sinceMs else { return nil }
        let waited = nowMs > sinceMs ? nowMs - sinceMs : 0
        return waited >= limitMs ? 0 : limitMs - waited
    }
}
