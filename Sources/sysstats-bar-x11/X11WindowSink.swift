// Shows each panel image in a dock window (the x11-window output). The image
// goes to the X server once per update: XPutImage into a pixmap that is the
// window's background, then a clear of the window. Exposes are repainted by the
// server from that pixmap; this process never hears of them (no ExposureMask).
// The X calls are in CBarX11/window.c.

import BarCoreEmbedded
import BarRuntime
import CBarSys
import CBarX11

/// A dock window on the display named by $DISPLAY, showing the panel image.
struct X11WindowSink {
    var window = cbarx11_window()
    /// The pixels the XImage wraps: the panel image is copied here before each put.
    let pixels: UnsafeMutableBufferPointer<UInt32>

    /// Opens the display and maps the window (`--size`, `--position`); exits 1 with
    /// one line on stderr when the display cannot be opened or cannot show 24-bit colour.
    init(options: BarOptions) {
        pixels = .allocate(capacity: options.width * options.height)
        pixels.initialize(repeating: 0)
        let error = cbarx11_window_open(&window, Int32(options.positionX), Int32(options.positionY),
                                        Int32(options.width), Int32(options.height), pixels.baseAddress)
        if error != Int32(CBARX11_WINDOW_OK) {
            cbarx11_window_report(error)
            exit(1)
        }
    }

    var pollFD: Int32 { window.fd }

    /// Puts `image` on the window (one XPutImage, one XClearWindow, one flush).
    mutating func show(_ image: PanelImage) -> Int32 {
        guard image.width == Int(window.width), image.height == Int(window.height) else { return EINVAL }
        image.withPixels { source in
            _ = pixels.update(fromContentsOf: source)
        }
        cbarx11_window_show(&window)
        return 0
    }

    /// Drains the queued X events; returns the last button pressed on the window (0 for none).
    /// The window closed by the window manager ends the program (0), destroyed under us (1).
    mutating func takeClick() -> Int {
        var button = 0
        while true {
            let event = cbarx11_window_next_event(&window)
            switch event {
            case Int32(CBARX11_EVENT_NONE): return button
            case Int32(CBARX11_EVENT_CLOSE): exit(0)
            case Int32(CBARX11_EVENT_DESTROYED):
                writeError("sysstats-bar: the x11-window was destroyed")
                exit(1)
            case 1...255: button = Int(event)
            default: break
            }
        }
    }
}
