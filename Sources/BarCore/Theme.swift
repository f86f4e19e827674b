// How the bar looks beyond its blocks' own text: the separator of the text outputs, the
// text of a figure that was not measured, the colours of the warning and critical levels.
// The config file's [theme] table sets them; the defaults are the built-in look.

/// The bar's look. Bytes are raw (from the config file): outputs escape them.
public struct Theme: Equatable, Sendable {
    /// Between blocks in the text outputs (text, x11-root, genmon's label, waybar's text).
    public var separator: [UInt8] = Array(" | ".utf8)
    /// A figure that was not measured (slstatus' unknown string).
    public var notAvailable: [UInt8] = Array("n/a".utf8)
    /// i3bar colours of ``Level/warning`` and ``Level/critical`` (`#RRGGBB` or `#RRGGBBAA`).
    public var warning: [UInt8] = Array("#E5C07B".utf8)
    public var critical: [UInt8] = Array("#E06C75".utf8)
    public init() {}

    /// Whether `bytes` is an i3bar colour: `#` and 6 or 8 hex digits.
    public static func isColor<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        guard bytes.count == 7 || bytes.count == 9, bytes.first == UInt8(ascii: "#") else { return false }
        for b in bytes.dropFirst() {
            let hex = (b >= 48 && b <= 57) || (b >= 65 && b <= 70) || (b >= 97 && b <= 102)
            if !hex { return false }
        }
        return true
    }
}

/// What ``ByteWriter/appendNotAvailable()`` writes: the renderer sets it from its theme
/// before it draws (one renderer per process; tests draw one at a time).
nonisolated(unsafe) var currentNotAvailable: [UInt8] = Array("n/a".utf8)

extension ByteWriter {
    /// Appends the text of a figure that was not measured (`n/a` unless the theme says otherwise).
    public mutating func appendNotAvailable() { append(bytes: currentNotAvailable) }
}
