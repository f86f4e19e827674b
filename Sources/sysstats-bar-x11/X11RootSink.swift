// Shows each update as the X11 root window's name, as dwm reads it: WM_NAME via
// XStoreName (cut to 255 bytes on a UTF-8 character boundary: dwm copies at
// most that much) and _NET_WM_NAME as UTF8_STRING, on one connection kept open,
// set only when the text changed.

import BarCoreEmbedded
import BarRuntime
import CBarSys
import CBarX11

/// The root window name of one X display.
struct X11RootSink: BarSink {
    let display: OpaquePointer
    let root: Window
    let netWMName: Atom
    let utf8String: Atom
    /// The last name set, NUL-terminated; reused.
    var current: [UInt8]
    /// The WM_NAME copy, cut and NUL-terminated; reused.
    var cut: [UInt8]

    /// Opens the display named by $DISPLAY; nil when it cannot.
    init?() {
        guard let d = XOpenDisplay(nil) else { return nil }
        display = d
        cbarx11_install_error_handlers()
        root = XDefaultRootWindow(d)
        netWMName = XInternAtom(d, "_NET_WM_NAME", 0)
        utf8String = XInternAtom(d, "UTF8_STRING", 0)
        current = []
        current.reserveCapacity(8192)
        cut = []
        cut.reserveCapacity(256)
    }

    var pollFD: Int32 { XConnectionNumber(display) }

    mutating func show(_ line: [UInt8]) -> Int32 {
        if current.count == line.count + 1 {
            var same = true
            for i in 0..<line.count where current[i] != line[i] { same = false; break }
            if same { return 0 }
        }
        current.removeAll(keepingCapacity: true)
        current.append(contentsOf: line)
        current.append(0)
        cut.removeAll(keepingCapacity: true)
        let n = utf8PrefixLength(line, maximum: 255)
        for i in 0..<n { cut.append(line[i]) }
        cut.append(0)
        cut.withUnsafeBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { _ = XStoreName(display, root, $0) }
        }
        line.withUnsafeBufferPointer { p in
            _ = XChangeProperty(display, root, netWMName, utf8String, 8, PropModeReplace, p.baseAddress, Int32(p.count))
        }
        _ = XFlush(display)
        return 0
    }

    /// Drains whatever the server sent (nothing is selected; errors go to the handlers).
    mutating func handleEvents() -> Int {
        var event = XEvent()
        while XPending(display) > 0 { _ = XNextEvent(display, &event) }
        return 0
    }
}
