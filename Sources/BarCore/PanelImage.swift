// The panel's picture: a fixed-size 32-bit image allocated once and redrawn in
// place. Pixels are 0x00RRGGBB, row-major, stride = width: what XPutImage wants
// for a 24-bit ZPixmap on a little-endian machine, and what the PNG encoder
// turns into RGB. Every primitive clips to the image: nothing writes outside it.

/// A colour, 0x00RRGGBB.
public typealias PanelColor = UInt32

/// A rectangle in image coordinates; may extend past the image (drawing clips).
public struct PanelRect: Equatable, Sendable {
    /// Top-left corner and size, pixels; a width or height ≤ 0 is an empty rectangle.
    public var x: Int, y: Int, width: Int, height: Int
    /// A rectangle at (x, y) of `width`×`height`.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
}

/// A width×height image of 0x00RRGGBB pixels, allocated once.
///
/// The storage is one `[UInt32]` reserved at init: drawing mutates it in place and
/// never reallocates while the image is uniquely held. A sink that wants to keep the
/// pixels past ``BarSink``'s `showImage` call copies them into its own buffer (holding
/// a copy of the struct would make the next redraw copy the whole array).
public struct PanelImage {
    /// The smallest and largest `--size` accepted.
    public static let minimumWidth = 64, minimumHeight = 24
    public static let maximumWidth = 1024, maximumHeight = 256
    /// The size used without `--size`.
    public static let defaultWidth = 180, defaultHeight = 56

    /// Size in pixels, fixed at init.
    public let width: Int
    public let height: Int
    /// width × height pixels, row-major, 0x00RRGGBB.
    public private(set) var pixels: [UInt32]

    /// Allocates a `width`×`height` image (each at least 1), filled with `color`.
    public init(width: Int, height: Int, color: PanelColor = 0) {
        self.width = max(1, width)
        self.height = max(1, height)
        pixels = [UInt32](repeating: color, count: self.width * self.height)
    }

    /// The pixel at (x, y); 0 outside the image.
    public subscript(x: Int, y: Int) -> PanelColor {
        guard x >= 0, y >= 0, x < width, y < height else { return 0 }
        return pixels[y * width + x]
    }

    /// Calls `body` with the pixels (width × height, row-major) without copying.
    public func withPixels<R>(_ body: (UnsafeBufferPointer<UInt32>) -> R) -> R {
        pixels.withUnsafeBufferPointer(body)
    }

    /// Fills the whole image with `color`.
    public mutating func clear(_ color: PanelColor) {
        pixels.withUnsafeMutableBufferPointer { p in
            for i in 0..<p.count { p[i] = color }
        }
    }

    /// Sets one pixel; ignored outside the image.
    @inline(__always)
    public mutating func set(x: Int, y: Int, _ color: PanelColor) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        pixels[y * width + x] = color
    }

    /// Fills `rect` (clipped to the image) with `color`.
    public mutating func fill(_ rect: PanelRect, _ color: PanelColor) {
        let x0 = max(0, rect.x), y0 = max(0, rect.y)
        // Compared before adding so that a huge width cannot overflow.
        let x1 = rect.width <= 0 ? x0 : (rect.x > width - rect.width ? width : rect.x + rect.width)
        let y1 = rect.height <= 0 ? y0 : (rect.y > height - rect.height ? height : rect.y + rect.height)
        guard x0 < x1, y0 < y1 else { return }
        let w = width
        pixels.withUnsafeMutableBufferPointer { p in
            for y in y0..<y1 {
                let row = y * w
                for x in x0..<x1 { p[row + x] = color }
            }
        }
    }

    /// A one-pixel outline of `rect`, clipped.
    public mutating func stroke(_ rect: PanelRect, _ color: PanelColor) {
        guard rect.width > 0, rect.height > 0 else { return }
        fill(PanelRect(x: rect.x, y: rect.y, width: rect.width, height: 1), color)
        fill(PanelRect(x: rect.x, y: rect.y + rect.height - 1, width: rect.width, height: 1), color)
        fill(PanelRect(x: rect.x, y: rect.y, width: 1, height: rect.height), color)
        fill(PanelRect(x: rect.x + rect.width - 1, y: rect.y, width: 1, height: rect.height), color)
    }

    /// A horizontal line from (x, y), `length` pixels, clipped.
    public mutating func hline(x: Int, y: Int, length: Int, _ color: PanelColor) {
        fill(PanelRect(x: x, y: y, width: length, height: 1), color)
    }

    /// A vertical line from (x, y) downwards, `length` pixels, clipped.
    public mutating func vline(x: Int, y: Int, length: Int, _ color: PanelColor) {
        fill(PanelRect(x: x, y: y, width: 1, height: length), color)
    }
}
