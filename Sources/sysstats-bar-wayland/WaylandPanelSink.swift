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

    /// Text updates do not apply to the panel.
    mutating func show(_ line: [UInt8]) -> Int32 { 0 }

    mutating func showImage(_ image: PanelImage) -> Int32 {
        image.withPixels { cbarwl_panel_show(panel, $0.baseAddress) }
    }

    mutating func hasQueuedEvents() -> Bool { cbarwl_panel_has_queued_event(panel) != 0 }

    /// One click (its button) per call, 0 when none waits; the compositor's exit ends the bar
    /// with one line and status 0 (as the X11 window's close does), a protocol error with
    /// status 1.
    mutating func handleEvents() -> Int {
        let event = cbarwl_panel_next_event(panel)
        switch event {
        case Int32(CBARWL_EVENT_NONE): return 0
        case Int32(CBARWL_EVENT_LOST):
            cbarwl_report_end(panel, event)
            return sinkClosed
        case Int32(CBARWL_EVENT_FAILED):
            cbarwl_report_end(panel, event)
            return sinkDestroyed
        default: return Int(event)
        }
    }
}
