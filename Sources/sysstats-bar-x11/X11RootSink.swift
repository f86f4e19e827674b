// Shows each update as the X11 root window's name, as dwm reads it: WM_NAME as
// STRING, what XStoreName sets (cut to 255 bytes on a UTF-8 character boundary:
// dwm copies at most that much) and _NET_WM_NAME as UTF8_STRING, on one
// connection kept open, set only when the text changed (CBarX11/root.c).

import BarCore
import BarRuntime
import CBarSys
import CBarX11

/// The root window name of one X display.
struct X11RootSink: BarSink {
    var root = cbarx11_root()
    /// The last name set; reused.
    var current: [UInt8]

    /// Connects to the display named by $DISPLAY; nil when it cannot.
    init?() {
        if cbarx11_root_open(&root) != 0 { return nil }
        current = []
        current.reserveCapacity(8192)
    }

    var pollFD: Int32 { root.fd }

    mutating func show(_ line: [UInt8]) -> Int32 {
        if current.count == line.count {
            var same = true
            for i in 0..<line.count where current[i] != line[i] { same = false; break }
            if same { return 0 }
        }
        current.removeAll(keepingCapacity: true)
        current.append(contentsOf: line)
        let cut = utf8PrefixLength(line, maximum: 255)
        line.withUnsafeBufferPointer { p in
            cbarx11_root_set_name(&root, p.baseAddress, UInt32(p.count), UInt32(cut))
        }
        return 0
    }

    /// Drains whatever the server sent (nothing is selected; errors are reported).
    mutating func handleEvents() -> Int {
        cbarx11_root_drain(&root)
        return 0
    }
}
