import CLibc
import Bookmarks
import CSamplerSys
import ProcFS
import SnapshotCodec

/// What a pushing helper's frames are read by (ProcFS's ``AudioHelperOutput``,
/// ``MediaHelperOutput``) and how its readings go into a snapshot.
protocol PushedFrames: AnyObject {
    init()
    func fill(from fd: FileDescriptor) -> Bool
    func takeFrames() -> Bool
    func reset()
    var state: HelperFrameState { get }
    var reason: [UInt8] { get }
    /// The parts its frames fill.
    static var parts: SnapshotSections { get }
    /// What the log says: `no volume figures: …`, `no sound server answers …`.
    static var figures: StaticString { get }
    static var serverDown: StaticString { get }
    static var downEffect: StaticString { get }
    static var serverBack: StaticString { get }
    /// Puts the last frame's readings into `snapshot` (called while connected).
    func store(into snapshot: inout Snapshot)
}

extension AudioHelperOutput: PushedFrames {
    static var parts: SnapshotSections { VolumePart.part.part.union(MicrophonePart.part.part) }
    static var figures: StaticString { "volume" }
    static var serverDown: StaticString { "no sound server answers" }
    static var downEffect: StaticString { "the volume shows n/a until one does" }
    static var serverBack: StaticString { "the sound server answers again" }

    func store(into snapshot: inout Snapshot) {
        storeOnly(output, .volume, &snapshot)
        storeOnly(input, .microphone, &snapshot)
    }
}

extension MediaHelperOutput: PushedFrames {
    static var parts: SnapshotSections { MediaPart.part.part }
    static var figures: StaticString { "media" }
    static var serverDown: StaticString { "no session bus answers" }
    static var downEffect: StaticString { "the media block hides until one does" }
    static var serverBack: StaticString { "the session bus answers again" }

    /// The players with their positions as of now: a playing one's moves on each sample.
    func store(into snapshot: inout Snapshot) {
        let players = shown(atNs: clock())
        _ = snapshot.listed.update(.media) { list in
            if list == players { return }
            list.removeAll(keepingCapacity: true)
            for i in 0..<players.count { list.append(players[i]) }
        }
    }
}

/// `tag`'s list: the one `reading`, or none.
private func storeOnly(_ reading: PartReading?, _ tag: SectionTag, _ snapshot: inout Snapshot) {
    _ = snapshot.listed.update(tag) { list in
        guard let reading else { list.removeAll(keepingCapacity: true); return }
        if list.count == 1 && list[0] == reading { return }
        list.removeAll(keepingCapacity: true)
        list.append(reading)
    }
}

/// A helper beside the sampler whose frames are pushed (`sysstatsd-audio watch` for the volume
/// and microphone, `sysstatsd-media watch` for the media players): started while a bar shows
/// one of its parts, stopped when none does. The sampler never loads libpulse or a D-Bus
/// library (docs/architecture.md, "The helpers"). What it writes is pushed, not polled: its
/// pipe wakes the sampler's sleep (SIGIO where the change watch takes its events so, else a
/// descriptor of its poll) and the sampler publishes at once (``SamplerRun``); while nothing
/// changes it writes nothing and costs the sampler no wake-up.
///
/// The helper connects again by itself when its server goes and comes back. A helper that
/// ends (its library missing, a crash) is said once on stderr and started again at most once
/// a minute; every wait on it is bounded (``ChildStop``).
final class PushingHelper<Frames: PushedFrames> {
    /// The parts it measures.
    static var parts: SnapshotSections { Frames.parts }
    static var retryNs: UInt64 { 60_000_000_000 }

    let path: String
    private var pid: pid_t = -1
    /// The read end of the helper's stdout, or -1.
    private(set) var readEnd: Int32 = -1
    private let output = Frames()
    private var lastStartNs: UInt64 = 0
    private var reported = false
    private var reportedDown = false
    /// The read end raises SIGIO: set when the sampler's change watch has its handler in place.
    var signalsWhenReadable = false
    /// Where one-line reports go (stderr; tests collect them).
    var reportLine: (String) -> Void = { printError($0) }
    /// Helpers started (tests).
    private(set) var starts = 0

    init(path: String) {
        self.path = path
    }

    deinit { stop() }

    /// Starts the helper when `wanted` and it is not running (at most once a minute), stops
    /// it when not `wanted`.
    func update(wanted: Bool, nowNs: UInt64) {
        guard wanted else { stop(); return }
        guard pid <= 0, lastStartNs == 0 || nowNs &- lastStartNs >= Self.retryNs else { return }
        lastStartNs = max(nowNs, 1)
        switch SpawnedHelper.start(path, ["watch"]) {
        case .success(let helper):
            pid = helper.pid
            readEnd = helper.readEnd
            starts += 1
            output.reset()
            if signalsWhenReadable { _ = csamplersys_also_signal_when_readable(readEnd) }
        case .failure(let e):
            report("cannot start \(TerminalText.escape(path)): \(e.description)")
        }
    }

    /// Reads what the helper wrote since the last call; true when a whole frame came (the
    /// readings may have changed).
    func take() -> Bool {
        guard readEnd >= 0 else { return false }
        let open = output.fill(from: FileDescriptor(rawValue: readEnd))
        let took = output.takeFrames()
        if took {
            switch output.state {
            case .failed: report(String(decoding: output.reason, as: UTF8.self))
            case .down:
                if !reportedDown {
                    reportedDown = true
                    reportLine("sysstatsd: \(Frames.serverDown) (\(TerminalText.escape(String(decoding: output.reason, as: UTF8.self)))); "
                               + "\(Frames.downEffect)")
                }
            case .connected:
                if reportedDown { reportLine("sysstatsd: \(Frames.serverBack)") }
                reportedDown = false
            case .starting: break
            }
        }
        if !open { ended() }
        return took
    }

    /// Puts the last frame's readings into `snapshot`: their parts are there while the
    /// helper's server answers.
    func fill(_ snapshot: inout Snapshot) {
        snapshot.available.subtract(Self.parts)
        guard readEnd >= 0, output.state == .connected else { return }
        output.store(into: &snapshot)
        snapshot.available.formUnion(Self.parts)
    }

    private func report(_ why: String) {
        guard !reported else { return }
        reported = true
        reportLine("sysstatsd: no \(Frames.figures) figures: \(TerminalText.escape(why))")
    }

    /// The helper closed its output: reaped, its figures gone; started again after a minute.
    private func ended() {
        if pid > 0, let status = ChildStop.status(pid, withinMs: 100) {
            let signal = status & 0x7F
            if signal != 0 && signal != 0x7F { report("\(path) ended on signal \(signal)") }
            pid = -1
        }
        stop()
    }

    /// Ends the helper, if running, and reaps it, waiting a bounded time (``ChildStop``).
    func stop() {
        if readEnd >= 0 { close(readEnd); readEnd = -1 }
        guard pid > 0 else { return }
        _ = ChildStop.stop(pid)
        pid = -1
    }

    /// The running helper's pid, or -1 (tests).
    var runningPid: pid_t { pid }
}
