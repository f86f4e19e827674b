// What a click on a built-in block asks of the renderer's program, and what a click on a
// block that changes the machine asks of a helper (the sound helper, the media helper).

/// What a click asks of the renderer's program.
public enum ClickOutcome: Equatable, Sendable {
    case none
    /// The bar changed: draw it again.
    case redraw
    /// Run this command detached.
    case run([UInt8])
    /// Change a sound device through the sound helper (``SoundChange``).
    case sound(SoundChange)
    /// Play, pause or skip on a media player through the media helper (``MediaControl``).
    case media(MediaControl)
    /// Set a backlight's brightness by the media helper: its file, else logind (``BrightnessChange``).
    case brightness(BrightnessChange)
}

/// What a wheel on the backlight block asks of the media helper: `sysstatsd-media brightness
/// backlight DEVICE VALUE` writes the device's brightness file where the user may, else asks
/// logind's `SetBrightness` for the user's session; VALUE in the device's own steps.
public struct BrightnessChange: Equatable, Sendable {
    /// The device's name under /sys/class/backlight (`intel_backlight`).
    public let device: [UInt8]
    public let value: UInt32

    public init(device: [UInt8], value: UInt32) { self.device = device; self.value = value }

    /// The helper's arguments after its name.
    public var arguments: [[UInt8]] {
        var v = ByteWriter(capacity: 12)
        v.appendDecimal(UInt64(value))
        return [bytes("brightness"), bytes("backlight"), device, v.bytes]
    }
}

/// What a click on the media block asks of the media helper: `sysstatsd-media control PLAYER
/// play-pause|next|previous`, PLAYER the player the block shows (its bus name's word).
public struct MediaControl: Equatable, Sendable {
    public let player: [UInt8]
    /// `play-pause`, `next` or `previous`.
    public let action: [UInt8]

    public init(player: [UInt8], action: [UInt8]) { self.player = player; self.action = action }

    /// The helper's arguments after its name.
    public var arguments: [[UInt8]] { [bytes("control"), player, action] }
}

/// What a wheel or a click on a sound block asks of the sound helper: `sysstatsd-audio
/// change DEVICE DELTA MAX` (hundredths of a percent) or `sysstatsd-audio mute DEVICE`.
public struct SoundChange: Equatable, Sendable {
    /// `sink` or `source`.
    public let device: [UInt8]
    /// Toggle the mute switch instead of changing the volume.
    public let toggleMute: Bool
    public let deltaPermyriad: Int32
    public let maximumPermyriad: Int32

    /// The helper's arguments after its name.
    public var arguments: [[UInt8]] {
        if toggleMute { return [bytes("mute"), device] }
        var delta = ByteWriter(capacity: 12), maximum = ByteWriter(capacity: 12)
        if deltaPermyriad < 0 { delta.append(UInt8(ascii: "-")) }
        delta.appendDecimal(UInt64(deltaPermyriad.magnitude))
        maximum.appendDecimal(UInt64(maximumPermyriad.magnitude))
        return [bytes("change"), device, delta.bytes, maximum.bytes]
    }
}
