// Shows each panel image in a window (the x11-window output; --window-type says
// how it meets a window manager). The image goes to the X server once per update:
// PutImage into a pixmap that is the background of a child window of the image's
// size, then ClearArea of that child. Exposes are repainted by the
// server from that pixmap; this process never hears of them (no ExposureMask).
// The X calls are in CBarX11/window.c.

import BarCore
import BarRuntime
import CBarSys
import CBarX11

/// A window on the display named by $DISPLAY, showing the panel image.
struct X11WindowSink: BarSink {
    var window = cbarx11_window()

    /// Opens the display and maps the window (`--size`, `--position`, `--window-type`); nil, with
    /// one line on stderr, when the display cannot be opened or cannot show 24-bit colour.
    init?(options: BarOptions) {
        let error = cbarx11_window_open(&window, Int32(options.positionX), Int32(options.positionY),
                                        Int32(options.width), Int32(options.height), options.windowType.rawValue,
                                        PanelPalette.background)
        if error != Int32(CBARX11_WINDOW_OK) {
            cbarx11_window_report(error)
            return nil
        }
    }

    var pollFD: Int32 { window.fd }

    /// Text updates do not apply to the window.
    mutating func show(_ line: [UInt8]) -> Int32 { 0 }

    /// Puts `image` on the window: a PutImage into the background pixmap, a ClearArea, a flush.
    mutating func showImage(_ image: PanelImage) -> Int32 {
        guard image.width == Int(window.width), image.height == Int(window.height) else { return EINVAL }
        // libxcb sends the renderer's own pixels (writev) before the call returns: no copy here.
        image.withPixels { cbarx11_window_show(&window, $0.baseAddress) }
        return 0
    }

    /// True when libxcb already holds an event (read off the socket while it wrote).
    mutating func hasQueuedEvents() -> Bool { cbarx11_window_has_queued_event(&window) != 0 }

    /// Takes queued X events up to the next button press on the window and returns its
    /// button (0 when the queue is empty): the loop calls again until 0, so no click
    /// is lost in libxcb's queue. The window manager closing the window ends the
    /// bar (``sinkClosed``, status 0); the window destroyed under us ends it (``sinkDestroyed``, 1).
    mutating func handleEvents() -> Int {
        while true {
            let event = cbarx11_window_next_event(&window)
            switch event {
            case Int32(CBARX11_EVENT_NONE): return 0
            case Int32(CBARX11_EVENT_CLOSE): return sinkClosed
            case Int32(CBARX11_EVENT_DESTROYED):
                writeError("sysstats-bar: the x11-window was destroyed")
                return sinkDestroyed
            case 1...255: return Int(event)
            default: continue
            }
        }
    }
}
