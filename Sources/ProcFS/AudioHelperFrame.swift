import CLibc
import SnapshotCodec

/// What the sound helper (`sysstatsd-audio watch`, which loads libpulse so that the sampler
/// never does) writes on its stdout: a frame at each change of the server's default output
/// or input (or of ALSA's mixer where no server answers), lines of fields separated by a tab:
///
///     sink VOLUME_PERMYRIAD MUTED PORT DESCRIPTION
///     source VOLUME_PERMYRIAD MUTED PORT DESCRIPTION
///     end
///
/// (a device the server has no default of is left out), or `down REASON` while no server
/// answers and no mixer stands in, or `error REASON` when the helper stops (neither libpulse
/// nor libasound). Another program could
/// sit at the helper's path, so nothing is taken on trust: a line it cannot read is skipped,
/// a volume is clamped to 0...10 × the server's 100 %, a mute flag is 0 or 1, texts are cut
/// at their readings' limits, and a line longer than the buffer drops what was buffered.
public final class AudioHelperOutput {
    /// The most bytes buffered: a frame is at most two lines of about 400 bytes.
    public static let capacity = 4096
    /// The highest volume taken: 1,000 % (PulseAudio's own ceiling is about 1,500 %, no
    /// desktop lets a user past 150 %).
    public static let maximumVolume: Int64 = 100_000
    private var buffer = HelperOutputBuffer(capacity: AudioHelperOutput.capacity)
    /// The bytes buffered, while a call reads them (``takeFrames()``).
    private var bytes: [UInt8] { buffer.bytes }

    /// What the last whole frame said (``HelperFrameState``; `connected`: ``output`` and
    /// ``input`` are the server's defaults).
    public typealias State = HelperFrameState
    public private(set) var state = State.starting
    /// The default output and input as the last frame gave them (nil: the server has none).
    public private(set) var output: PartReading?
    public private(set) var input: PartReading?
    /// The last `down` or `error` line's text.
    public private(set) var reason: [UInt8] = []
    private var frameOutput = PartReading(), frameInput = PartReading()
    private var frameHasOutput = false, frameHasInput = false
    /// What the frame being read says: connected unless a `down` or `error` line came.
    private var frameState = State.connected

    public init() {
        reason.reserveCapacity(256)
        frameOutput.source.reserveCapacity(Snapshot.maximumInterfaceNameLength)
        frameOutput.label.reserveCapacity(Snapshot.maximumPathLength)
        frameInput.source.reserveCapacity(Snapshot.maximumInterfaceNameLength)
        frameInput.label.reserveCapacity(Snapshot.maximumPathLength)
    }

    /// Reads what `fd` has (non-blocking: until it would block, is at its end, or the buffer
    /// is full). Returns false at the end of the stream or on an error but EAGAIN and EINTR.
    public func fill(from fd: FileDescriptor) -> Bool { buffer.fill(from: fd) }

    /// Forgets everything (a helper started again begins from nothing).
    public func reset() {
        buffer.removeAll()
        state = .starting
        frameState = .connected
        output = nil
        input = nil
        frameHasOutput = false; frameHasInput = false
    }

    /// Appends `data` as if read (tests, the fuzz target).
    public func append(_ data: UnsafeRawBufferPointer) { buffer.append(data) }

    /// Takes the complete frames buffered (the last one wins) and drops them; true when a
    /// frame was complete.
    public func takeFrames() -> Bool {
        let (took, consumed) = buffer.scanFrames { line($0, $1) }
        // What follows the last `end` is the next frame's start: kept, moved to the front.
        buffer.dropFirst(consumed)
        return took
    }

    /// Takes one line (without its LF); true when it ended a frame.
    private func line(_ start: Int, _ end: Int) -> Bool {
        var fields: (Int, Int, Int, Int, Int) = (start, end, end, end, end)   // where each field starts
        var count = 1
        var k = start
        while k < end && count < 5 {
            if bytes[k] == UInt8(ascii: "\t") {
                switch count {
                case 1: fields.1 = k + 1
                case 2: fields.2 = k + 1
                case 3: fields.3 = k + 1
                default: fields.4 = k + 1
                }
                count += 1
            }
            k += 1
        }
        let firstEnd = count > 1 ? fields.1 - 1 : end
        if word(start, firstEnd, "end") {
            finishFrame()
            return true
        }
        if word(start, firstEnd, "down") || word(start, firstEnd, "error") {
            frameState = word(start, firstEnd, "down") ? .down : .failed
            reason.removeAll(keepingCapacity: true)
            if count > 1 { for j in fields.1..<min(end, fields.1 + 255) { reason.append(bytes[j]) } }
            frameHasOutput = false; frameHasInput = false
            return false
        }
        let isSink = word(start, firstEnd, "sink")
        // The helper turns a tab in a text into a space: a sixth field is not its line.
        guard isSink || word(start, firstEnd, "source"), count == 5, !hasTab(fields.4, end),
              let volume = number(fields.1, fields.2 - 1), let muted = number(fields.2, fields.3 - 1), muted <= 1 else { return false }
        if isSink {
            fill(&frameOutput, volume, muted, port: fields.3, fields.4 - 1, description: fields.4, end)
            frameHasOutput = true
        } else {
            fill(&frameInput, volume, muted, port: fields.3, fields.4 - 1, description: fields.4, end)
            frameHasInput = true
        }
        return false
    }

    private func fill(_ r: inout PartReading, _ volume: Int64, _ muted: Int64, port: Int, _ portEnd: Int,
                      description: Int, _ descriptionEnd: Int) {
        r.reset(source: bytes[port..<portEnd], label: bytes[description..<descriptionEnd])
        r[VolumePart.volume] = min(volume, Self.maximumVolume)
        r[VolumePart.muted] = muted
    }

    private func finishFrame() {
        state = frameState
        frameState = .connected
        if state == .connected {
            output = frameHasOutput ? frameOutput : nil
            input = frameHasInput ? frameInput : nil
        } else {
            output = nil
            input = nil
        }
        frameHasOutput = false; frameHasInput = false
    }

    private func hasTab(_ start: Int, _ end: Int) -> Bool {
        var j = start
        while j < end { if bytes[j] == UInt8(ascii: "\t") { return true }; j += 1 }
        return false
    }

    private func word(_ start: Int, _ end: Int, _ w: StaticString) -> Bool { buffer.word(start, end, w) }
    private func number(_ start: Int, _ end: Int) -> Int64? { buffer.number(start, end) }
}
