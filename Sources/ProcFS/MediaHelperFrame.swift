import CLibc
import SnapshotCodec

/// What the media helper (`sysstatsd-media watch`, which speaks D-Bus so that the sampler never
/// does) writes on its stdout: a frame each time a player appears, goes or changes, one line
/// per MPRIS player (the playing one first, else the one that changed last), fields separated
/// by a tab:
///
///     player PLAYER IDENTITY STATUS LENGTH_SECONDS TITLE ARTIST ALBUM POSITION_MS RATE_PERMILLE
///     end
///
/// (`end` alone: no player runs), or `down REASON` while the session bus does not answer, or
/// `error REASON` when the helper stops (libsystemd missing). STATUS is `playing`, `paused`
/// or `stopped`; LENGTH_SECONDS and POSITION_MS are empty where the player gives none. The
/// position is where the track was when the helper read it: a player signals only its jumps,
/// so while one plays its position is counted on from the frame's arrival at its rate
/// (``shown(atNs:)``), at most to the track's length. A line of the first eight fields (a
/// helper from before the position) is read without one. Another program could
/// sit at the helper's path, so nothing is taken on trust: a line it cannot read is skipped,
/// at most ``MediaPart``'s limit of players is kept, texts are cut at their limits, and a
/// line longer than the buffer drops what was buffered.
public final class MediaHelperOutput {
    /// The most bytes buffered: a frame is at most four lines of about 600 bytes.
    public static let capacity = 8192
    public static let maximumPlayers = MediaPart.part.maximumReadings
    /// A line's fields: the word and nine more (seven before the position).
    static let fieldCount = 10
    static let fieldCountWithoutPosition = 8
    /// The fastest rate taken, thousandths (a hundred times as recorded).
    static let maximumRatePermille: Int64 = 100_000
    private var buffer = HelperOutputBuffer(capacity: MediaHelperOutput.capacity)
    private var bytes: [UInt8] { buffer.bytes }

    public typealias State = HelperFrameState
    public private(set) var state = State.starting
    /// The players as the last frame gave them (connected: maybe none).
    public private(set) var players: [PartReading] = []
    /// The last `down` or `error` line's text.
    public private(set) var reason: [UInt8] = []
    private var framePlayers: [PartReading] = []
    /// Each player's position when its frame came, and its rate (``shown(atNs:)``).
    private var positions: [Anchor] = []
    private var framePositions: [Anchor] = []
    /// When the last frame came (``clock``).
    private var frameNs: UInt64 = 0
    /// The players with their positions counted on to a time (``shown(atNs:)``), kept.
    private var shownPlayers: [PartReading] = []
    /// The monotonic clock, nanoseconds to the millisecond (tests set their own).
    public var clock: () -> UInt64 = { UInt64(clamping: monotonicMilliseconds()) &* 1_000_000 }

    struct Anchor {
        var positionMs: Int64?
        var ratePermille: Int64 = 1000
    }
    private var frameCount = 0
    private var frameState = State.connected
    /// Where each field of the line being read starts, and past its end.
    private var starts = [Int](repeating: 0, count: MediaHelperOutput.fieldCount + 1)

    public init() {
        reason.reserveCapacity(256)
        players.reserveCapacity(Self.maximumPlayers)
        shownPlayers.reserveCapacity(Self.maximumPlayers)
        positions.reserveCapacity(Self.maximumPlayers)
        framePositions = [Anchor](repeating: Anchor(), count: Self.maximumPlayers)
        for _ in 0..<Self.maximumPlayers {
            var r = PartReading()
            r.source.reserveCapacity(Snapshot.maximumInterfaceNameLength)
            r.label.reserveCapacity(Snapshot.maximumPathLength)
            for t in 0..<MediaPart.part.texts.count { r.setText(t, EmptyCollection<UInt8>()) }
            framePlayers.append(r)
        }
    }

    /// Reads what `fd` has (non-blocking). Returns false at the end of the stream or on an
    /// error but EAGAIN and EINTR.
    public func fill(from fd: FileDescriptor) -> Bool { buffer.fill(from: fd) }

    /// Forgets everything (a helper started again begins from nothing).
    public func reset() {
        buffer.removeAll()
        state = .starting
        frameState = .connected
        players.removeAll(keepingCapacity: true)
        positions.removeAll(keepingCapacity: true)
        frameCount = 0
    }

    /// Appends `data` as if read (tests, the fuzz target).
    public func append(_ data: UnsafeRawBufferPointer) { buffer.append(data) }

    /// Takes the complete frames buffered (the last one wins) and drops them; true when a
    /// frame was complete.
    public func takeFrames() -> Bool {
        // The lines of a frame without its end yet are read again with the rest of it.
        frameCount = 0
        frameState = .connected
        let (took, consumed) = buffer.scanFrames { line($0, $1) }
        // What follows the last `end` is the next frame's start: kept, moved to the front.
        buffer.dropFirst(consumed)
        return took
    }

    /// Takes one line (without its LF); true when it ended a frame.
    private func line(_ start: Int, _ end: Int) -> Bool {
        let count = split(start, end)
        let firstEnd = count > 1 ? starts[1] - 1 : end
        if word(start, firstEnd, "end") {
            finishFrame()
            return true
        }
        let down = word(start, firstEnd, "down")
        if down || word(start, firstEnd, "error") {
            frameState = down ? .down : .failed
            reason.removeAll(keepingCapacity: true)
            if count > 1 { for j in starts[1]..<min(end, starts[1] + 255) { reason.append(bytes[j]) } }
            frameCount = 0
            return false
        }
        // The helper turns a tab in a text into a space: an eleventh field is not its line.
        guard word(start, firstEnd, "player"), count == Self.fieldCount || count == Self.fieldCountWithoutPosition,
              frameCount < Self.maximumPlayers, let playing = status(starts[3], starts[4] - 1) else { return false }
        guard let length = optionalNumber(4) else { return false }
        var anchor = Anchor()
        if count == Self.fieldCount {
            guard let position = optionalNumber(8), position.map({ $0 >= 0 }) ?? true,
                  let rate = number(starts[9], starts[10] - 1), rate >= 0, rate <= Self.maximumRatePermille else { return false }
            anchor = Anchor(positionMs: position, ratePermille: rate)
        }
        fill(&framePlayers[frameCount], playing: playing, length: length)
        framePositions[frameCount] = anchor
        frameCount += 1
        return false
    }

    /// Field `i` as a whole number, `.some(nil)` where it is empty; nil where it is not a number.
    private func optionalNumber(_ i: Int) -> Int64?? {
        let end = starts[i + 1] - 1
        guard end > starts[i] else { return .some(nil) }
        guard let n = number(starts[i], end) else { return nil }
        return .some(n)
    }

    private func fill(_ r: inout PartReading, playing: Bool, length: Int64?) {
        r.reset(source: bytes[starts[1]..<(starts[2] - 1)], label: bytes[starts[2]..<(starts[3] - 1)])
        r[MediaPart.playing] = playing ? 1 : 0
        r[MediaPart.length] = length
        r.setText(MediaPart.status, bytes[starts[3]..<(starts[4] - 1)])
        r.setText(MediaPart.title, bytes[starts[5]..<(starts[6] - 1)])
        r.setText(MediaPart.artist, bytes[starts[6]..<(starts[7] - 1)])
        r.setText(MediaPart.album, bytes[starts[7]..<(starts[8] - 1)])
        r[MediaPart.position] = nil
    }

    /// Notes where each field starts (``starts``; `starts[count]` is past the line's end);
    /// the number of fields, at most one more than a player line has.
    private func split(_ start: Int, _ end: Int) -> Int {
        starts[0] = start
        var count = 1
        var k = start
        while k < end {
            if bytes[k] == UInt8(ascii: "\t") {
                if count == Self.fieldCount { return count + 1 }
                starts[count] = k + 1
                count += 1
            }
            k += 1
        }
        starts[count] = end + 1
        return count
    }

    private func finishFrame() {
        state = frameState
        frameState = .connected
        players.removeAll(keepingCapacity: true)
        positions.removeAll(keepingCapacity: true)
        if state == .connected {
            for i in 0..<frameCount { players.append(framePlayers[i]); positions.append(framePositions[i]) }
        }
        frameNs = clock()
        frameCount = 0
    }

    /// The players as at `nowNs` (``clock``'s time): each one's position (whole seconds)
    /// counted on from its frame's arrival while it plays, at its rate, at most to its track's
    /// length; where it was while paused or stopped. A steady call allocates nothing.
    public func shown(atNs nowNs: UInt64) -> [PartReading] {
        shownPlayers.removeAll(keepingCapacity: true)
        for i in 0..<players.count {
            shownPlayers.append(players[i])
            guard let ms = positions[i].positionMs else { continue }
            var at = ms
            if players[i][MediaPart.playing] == 1, nowNs > frameNs {
                let elapsedMs = Int64(clamping: (nowNs - frameNs) / 1_000_000)
                let (played, over) = elapsedMs.multipliedReportingOverflow(by: positions[i].ratePermille)
                let (sum, past) = ms.addingReportingOverflow(over ? Int64.max : played / 1000)
                at = over || past ? Int64.max : sum
            }
            var seconds = at / 1000
            if let length = players[i][MediaPart.length] { seconds = min(seconds, length) }
            shownPlayers[i][MediaPart.position] = seconds
        }
        return shownPlayers
    }

    /// `playing` → true, `paused` or `stopped` → false, anything else nil.
    private func status(_ start: Int, _ end: Int) -> Bool? {
        if word(start, end, "playing") { return true }
        if word(start, end, "paused") || word(start, end, "stopped") { return false }
        return nil
    }

    private func word(_ start: Int, _ end: Int, _ w: StaticString) -> Bool { buffer.word(start, end, w) }
    private func number(_ start: Int, _ end: Int) -> Int64? { buffer.number(start, end) }
}
