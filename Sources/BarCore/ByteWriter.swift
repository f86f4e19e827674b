// A byte buffer allocated once and refilled on every update: appending within
// its capacity never allocates. Compiled as normal and as Embedded Swift.

import UTF8Text

/// A growable byte buffer meant to be reserved once and reused with ``reset()``.
public struct ByteWriter {
    /// The bytes written since the last ``reset()``.
    public private(set) var bytes: [UInt8]

    /// Creates an empty writer holding `capacity` bytes without reallocating.
    public init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Number of bytes written.
    public var count: Int { bytes.count }
    /// True when nothing has been written since the last reset.
    public var isEmpty: Bool { bytes.isEmpty }

    /// Forgets the contents and keeps the storage.
    public mutating func reset() { bytes.removeAll(keepingCapacity: true) }

    /// Drops the last `n` bytes (all of them when there are fewer).
    public mutating func removeLast(_ n: Int) { bytes.removeLast(min(max(n, 0), bytes.count)) }

    /// Drops a UTF-8 sequence left incomplete at the end (a bound cut it), if any.
    public mutating func dropIncompleteCharacter() {
        var lead = bytes.count
        while lead > 0 && bytes.count - lead < 4 && bytes[lead - 1] & 0xC0 == 0x80 { lead -= 1 }
        guard lead > 0 else { return }
        let b = bytes[lead - 1]
        let expected = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1
        if expected > 1 && bytes.count - (lead - 1) < expected { bytes.removeLast(bytes.count - (lead - 1)) }
    }

    /// Appends one byte.
    @inline(__always)
    public mutating func append(_ byte: UInt8) { bytes.append(byte) }

    /// Appends the UTF-8 bytes of a literal.
    public mutating func append(_ text: StaticString) {
        append(run: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends raw bytes.
    public mutating func append(bytes other: [UInt8]) {
        bytes.append(contentsOf: other)
    }

    /// Appends the bytes `run` points at: a short run a byte at a time (~10 instructions a
    /// byte), a longer one in one capacity check and copy (~100 instructions, then memcpy).
    mutating func append(run: UnsafeBufferPointer<UInt8>) {
        if run.count <= 16 {
            for b in run { bytes.append(b) }
        } else {
            bytes.append(contentsOf: run)
        }
    }

    /// Lets `fill` write up to `maximum` bytes at the end (it returns how many it wrote):
    /// for C functions that format into a buffer. Within the capacity, allocates nothing.
    public mutating func append(upTo maximum: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) -> Int) {
        // Into scratch space on the stack, then only what was written: growing the array by
        // `maximum` zeros first cost ~10 instructions a byte (5,000 per update for a clock).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(maximum, 1)) { scratch in
            let written = max(0, min(fill(UnsafeMutableBufferPointer(rebasing: scratch[..<max(maximum, 0)])), maximum))
            append(run: UnsafeBufferPointer(rebasing: scratch[..<written]))
        }
    }

    /// Appends a Unicode scalar in UTF-8.
    public mutating func append(scalar: UInt32) { UTF8Text.append(scalar, to: &bytes) }

    /// Appends the contents of another writer.
    public mutating func append(_ other: ByteWriter) { append(bytes: other.bytes) }

    /// Appends `value` in decimal, left-padded with zeros to `minimumDigits`.
    public mutating func appendDecimal(_ value: UInt64, minimumDigits: Int = 1) {
        // Least significant digit first, then reversed in place: no scratch storage.
        let start = bytes.count
        var v = value
        repeat {
            bytes.append(UInt8(truncatingIfNeeded: v % 10) &+ 48)
            v /= 10
        } while v != 0
        while bytes.count - start < minimumDigits { bytes.append(48) }
        var i = start, j = bytes.count - 1
        while i < j { bytes.swapAt(i, j); i += 1; j -= 1 }
    }

    /// Appends a signed decimal.
    public mutating func appendDecimal(_ value: Int) {
        if value < 0 { bytes.append(45); appendDecimal(UInt64(value.magnitude)) } else { appendDecimal(UInt64(value)) }
    }

    /// Appends `value / 10^scaleDigits` with `fractionDigits` decimals, rounded half up.
    /// For example `appendFixed(1234, scaleDigits: 2, fractionDigits: 1)` writes `12.3`.
    public mutating func appendFixed(_ value: UInt64, scaleDigits: Int, fractionDigits: Int) {
        var scale: UInt64 = 1
        for _ in 0..<scaleDigits { scale &*= 10 }
        var keep: UInt64 = 1
        for _ in 0..<fractionDigits { keep &*= 10 }
        // value * keep / scale, rounded.
        let scaled: UInt64
        if scale >= keep {
            let div = scale / keep
            scaled = value / div + (value % div >= (div + 1) / 2 && div > 1 ? 1 : 0)
        } else {
            let (product, overflow) = value.multipliedReportingOverflow(by: keep / scale)
            scaled = overflow ? .max : product
        }
        appendDecimal(scaled / keep)
        if fractionDigits > 0 {
            bytes.append(46)
            appendDecimal(scaled % keep, minimumDigits: fractionDigits)
        }
    }
}
