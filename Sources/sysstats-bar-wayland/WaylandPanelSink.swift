// Shows each panel image in a layer-shell surface (the wayland-panel output): the
// picture is copied into one of two shared-memory buffers, only its changed part is
// damaged, and the compositor composes it. The Wayland calls are in CBarWayland.

import BarCore
import BarRuntime
import CBarSys
import CBarWayland

/// A layer surface of the compositor named by $WAYLAND_DISPLAY, showing the panel image.
struct WaylandPanelSink: BarSink {
    let panel: OpaquePointer
    /// How long what the panel sent has waited for the compositor to read it (its socket full).
    var stall = WriteStall()
    /// ``cbarwl_panel_flushes`` at the last look.
    var flushesSeen: UInt = 0

    /// Connects and maps the surface (`--size`, `--anchor`, `--layer`, `--margin`,
    /// `--exclusive`, `--wayland-output`); nil, with one line on stderr, when there is no
    /// compositor, it has no layer shell, or the named output is not there.
    init?(options: BarOptions) {
        var name = options.waylandOutput ?? []
        name.append(0)
        var error: Int32 = 0
        let opened: OpaquePointer? = name.withUnsafeBufferPointer { bytes in
            bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) { cName in
                var o = cbarwl_options(width: Int32(options.width), height: Int32(options.height),
                                       anchor: options.anchor.rawValue, margin: Int32(options.margin),
                                       layer: options.layer.rawValue, exclusive: options.exclusive ? 1 : 0,
                                       output_name: options.waylandOutput == nil ? nil : cName,
                                       background: PanelPalette.background)
                guard let p = cbarwl_panel_open(&o, &error) else {
                    cbarwl_report(error, &o)
                    return nil
                }
                return p
            }
        }
        guard let opened else { return nil }
        panel = opened
    }

    var pollFD: Int32 { cbarwl_panel_fd(panel) }

    /// POLLOUT too while the compositor's socket is full: the rest goes when it reads again.
    var pollEvents: Int16 { stall.isWaiting ? Int16(POLLIN | POLLOUT) : Int16(POLLIN) }

    var writeWaitMs: UInt64? { stall.isWaiting ? stall.remainingMs(nowMs: cbarsys_monotonic_ms()) : nil }

    /// Text updates do not apply to the panel.
    mutating func show(_ line: [UInt8]) -> Int32 { 0 }

    /// EAGAIN is no failure: the compositor is not reading now, and the picture is kept
    /// until it does (``handleEvents()`` flushes on POLLOUT, or gives up after the limit).
    mutating func showImage(_ image: PanelImage) -> Int32 {
        let result = image.withPixels { cbarwl_panel_show(panel, $0.baseAddress) }
        noteWrites()
        return result == EAGAIN ? 0 : result
    }

    /// Starts or ends the wait on the compositor from what the C side says: every call
    /// that draws or handles events may have flushed.
    @discardableResult
    mutating func noteWrites() -> WriteStall.Outcome {
        let flushes = cbarwl_panel_flushes(panel)
        if flushes != flushesSeen {
            // Something got through since the last look: the compositor reads, and a wait
            // that holds now counts from now.
            flushesSeen = flushes
            stall.note(waiting: false, nowMs: 0)
        }
        let blocked = cbarwl_panel_write_blocked(panel) != 0
        return stall.note(waiting: blocked, nowMs: blocked ? cbarsys_monotonic_ms() : 0)
    }

    mutating func hasQueuedEvents() -> Bool { cbarwl_panel_has_queued_event(panel) != 0 }

    /// One click (its button) per call, 0 when none waits; the compositor's exit ends the bar
    /// with one line and status 0 (as the X11 window's close does), a protocol error with
    /// status 1, and so does a compositor that stopped reading: nothing the panel sent was
    /// read for ``WriteStall/defaultLimitMs``, or libwayland's own buffer overflowed.
    mutating func handleEvents() -> Int {
        // What waited, now that the socket may take it (POLLOUT), then the picture kept meanwhile.
        _ = cbarwl_panel_flush(panel)
        if noteWrites() == .stalled {
            writeError("sysstats-bar: the Wayland compositor stopped reading (nothing the panel sent was read for 10 s)")
            return sinkDestroyed
        }
        let event = cbarwl_panel_next_event(panel)
        noteWrites()
        switch event {
        case Int32(CBARWL_EVENT_NONE): return 0
        case Int32(CBARWL_EVENT_LOST):
            cbarwl_report_end(panel, event)
            return sinkClosed
        case Int32(CBARWL_EVENT_FAILED), Int32(CBARWL_EVENT_STALLED):
            cbarwl_report_end(panel, event)
            return sinkDestroyed
        default: return Int(event)
        }
    }
}
