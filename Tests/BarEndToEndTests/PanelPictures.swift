import Foundation
import XCTest

/// The panel picture as the tests compare it: 0x00RRGGBB words, row-major.
enum PanelPictures {
    /// The image the renderer draws for the runtime dir's snapshot, through the PNG output
    /// (`--output png:FILE --once` plus `extra`), decoded by scripts/decode-png.py (Python's zlib).
    static func png(of dir: RuntimeDir, width: Int, height: Int, extra: [String] = []) throws -> [UInt32] {
        let png = dir.url.appendingPathComponent("expected-\(UUID().uuidString).png").path
        defer { unlink(png) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try BarProcess.binary())
        p.arguments = ["--output", "png:\(png)", "--once", "--runtime-dir", dir.path, "--size", "\(width)x\(height)"] + extra
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        let decoder = BarProcess.packageRoot.appendingPathComponent("scripts/decode-png.py").path
        let d = Process()
        d.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        d.arguments = ["python3", decoder, png]
        let out = Pipe()
        d.standardOutput = out
        try d.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        d.waitUntilExit()
        // "W H", then one line of hex RGB per row.
        let lines = text.split(separator: "\n")
        XCTAssertEqual(lines.first.map(String.init), "\(width) \(height)")
        var pixels: [UInt32] = []
        for row in lines.dropFirst() {
            var i = row.startIndex
            while let end = row.index(i, offsetBy: 6, limitedBy: row.endIndex), i < row.endIndex {
                pixels.append(UInt32(row[i..<end], radix: 16) ?? 0xFF00_0000)
                i = end
            }
        }
        return pixels
    }

    /// How two pictures of `width` pixels a row differ, in one line (XCTAssertEqual would
    /// print every pixel).
    static func difference(_ a: [UInt32], _ b: [UInt32], width: Int) -> String {
        guard a.count == b.count else { return "\(a.count) pixels against \(b.count)" }
        let differing = a.indices.filter { a[$0] != b[$0] }
        guard let first = differing.first else { return "no difference" }
        let hex = { (v: UInt32) in String(v, radix: 16) }
        return "\(differing.count) pixels differ, the first at (\(first % width), \(first / width)): "
            + "\(hex(a[first])) against \(hex(b[first]))"
    }

    /// `picture` (`width` pixels a row) with each pixel `scale` x `scale` times.
    static func scaled(_ picture: [UInt32], width: Int, by scale: Int) -> [UInt32] {
        var out: [UInt32] = []
        out.reserveCapacity(picture.count * scale * scale)
        for row in stride(from: 0, to: picture.count, by: width) {
            var wide: [UInt32] = []
            for pixel in picture[row..<(row + width)] { wide.append(contentsOf: repeatElement(pixel, count: scale)) }
            for _ in 0..<scale { out.append(contentsOf: wide) }
        }
        return out
    }

    /// A binary PPM (P6, maxval 255, as grim writes it): its size and pixels.
    static func ppm(_ data: [UInt8]) -> (width: Int, height: Int, pixels: [UInt32])? {
        var fields: [Int] = [], i = 2, current: Int?
        guard data.count > 2, data[0] == UInt8(ascii: "P"), data[1] == UInt8(ascii: "6") else { return nil }
        while fields.count < 3 && i < data.count {
            let c = data[i]
            if c == UInt8(ascii: "#") {
                while i < data.count && data[i] != 0x0A { i += 1 }
            } else if c >= 48 && c <= 57 {
                current = (current ?? 0) * 10 + Int(c - 48)
            } else if let value = current {
                fields.append(value)
                current = nil
            }
            i += 1
        }
        guard fields.count == 3, fields[2] == 255 else { return nil }
        let (width, height) = (fields[0], fields[1])
        guard data.count - i >= width * height * 3 else { return nil }
        var pixels = [UInt32](repeating: 0, count: width * height)
        for p in 0..<(width * height) {
            let at = i + p * 3
            pixels[p] = UInt32(data[at]) << 16 | UInt32(data[at + 1]) << 8 | UInt32(data[at + 2])
        }
        return (width, height, pixels)
    }
}
