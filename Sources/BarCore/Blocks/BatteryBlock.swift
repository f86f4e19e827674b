import SnapshotCodec

/// `bat 85% - 1:23`: hidden without a battery; colours while discharging; urgent when low.
enum BatteryBlock {
    static let descriptor = BlockDescriptor(
        name: "battery", label: "bat", section: .battery, marks: LevelMarks(unit: .percent, warning: 2000, critical: 1000),
        present: { s, _ in s.battery.count > 0 },
        hiddenWhenMissingByDefault: true,
        // i3status's format_down (no battery), waybar's format-charging and format-full,
        // polybar's label-charging and label-full.
        states: [BlockState(key: "format_down", level: .normal) { s, _ in s.battery.count == 0 },
                 BlockState(key: "format_charging") { s, _ in s.battery.count > 0 && s.battery.state == .charging },
                 BlockState(key: "format_full") { s, _ in s.battery.count > 0 && s.battery.state == .full }],
        placeholders: [
            PlaceholderSpec("percent", "charge") { s, _, w in appendWholePercent(&w, UInt64(s.battery.percent)) },
            PlaceholderSpec("state", "charging, discharging, full, not charging, unknown") { s, _, w in
                appendState(s.battery.state, into: &w)
            },
            PlaceholderSpec("sign", "+ - = ~, empty when unknown") { s, _, w in appendSign(s.battery.state, into: &w) },
            PlaceholderSpec("remaining", "h:mm to empty or full, empty without an estimate") { s, _, w in
                if hasEstimate(s.battery) { appendRemaining(s.battery, into: &w) }
            },
            PlaceholderSpec("until", "the local time it will be empty (charging: full), HH:MM, as i3status's %emptytime; empty without an estimate") { s, c, w in
                if hasEstimate(s.battery) { appendUntil(s.battery, nowMs: c.nowMs, into: &w) }
            },
            PlaceholderSpec("power", "power flow, 9.0W") { s, _, w in
                w.appendFixed(UInt64(s.battery.powerMilliwatts), scaleDigits: 3, fractionDigits: 1)
                w.append(UInt8(ascii: "W"))
            },
        ],
        render: render)

    static func render(_ snap: Snapshot, _ c: BlockContext, into v: inout BlockValue) {
        let b = snap.battery
        // No battery here (a desktop): `n/a`, as a block asked for a missing GPU or sensor
        // says; the default bar hides it (hide_missing).
        guard b.count > 0 else { v.full.append("bat "); v.full.appendNotAvailable(); v.short.append(v.full); return }
        let pct = UInt64(b.percent)
        v.full.append("bat ")
        v.full.appendPercent(permyriad: pct)
        v.short.append(v.full)
        if b.state != .unknown {
            v.full.append(UInt8(ascii: " "))
            appendSign(b.state, into: &v.full)
        }
        if hasEstimate(b) {
            v.full.append(UInt8(ascii: " "))
            appendRemaining(b, into: &v.full)
        }
        if b.state == .discharging {
            v.level = c.level(falling: pct)
        }
        if snap.urgent.contains(.batteryLow) { v.urgent = true; v.level = .critical }
        v.percentage = wholePercent(min(pct, 10_000))
        v.alt = alt(b.state)
    }

    /// waybar's `alt` for the battery: its state, one word (a key of `format-icons`).
    static func alt(_ state: BatteryFigures.State) -> StaticString {
        switch state {
        case .charging: "charging"
        case .discharging: "discharging"
        case .full: "full"
        case .notCharging: "not-charging"
        case .unknown: "unknown"
        }
    }

    static func appendState(_ state: BatteryFigures.State, into w: inout ByteWriter) {
        switch state {
        case .charging: w.append("charging")
        case .discharging: w.append("discharging")
        case .full: w.append("full")
        case .notCharging: w.append("not charging")
        case .unknown: w.append("unknown")
        }
    }

    static func appendSign(_ state: BatteryFigures.State, into w: inout ByteWriter) {
        switch state {
        case .charging: w.append(UInt8(ascii: "+"))
        case .discharging: w.append(UInt8(ascii: "-"))
        case .full: w.append(UInt8(ascii: "="))
        case .notCharging: w.append(UInt8(ascii: "~"))
        case .unknown: break
        }
    }

    static func hasEstimate(_ b: BatteryFigures) -> Bool {
        (b.state == .charging || b.state == .discharging) && b.minutesRemaining != .max
    }

    /// `%H:%M` and the local zone, NUL-terminated, made once (an update allocates nothing).
    static let untilFormat: [CChar] = [0x25, 0x48, 0x3A, 0x25, 0x4D, 0]
    static let localZone: [CChar] = [0]

    /// The local clock time `minutesRemaining` from now.
    static func appendUntil(_ b: BatteryFigures, nowMs: UInt64, into w: inout ByteWriter) {
        let later = nowMs.addingReportingOverflow(UInt64(b.minutesRemaining).multipliedReportingOverflow(by: 60_000).partialValue)
        TimeBlock.append(format: untilFormat, zone: localZone, nowMs: later.overflow ? .max / 2 : later.partialValue, into: &w)
    }

    static func appendRemaining(_ b: BatteryFigures, into w: inout ByteWriter) {
        w.appendDecimal(UInt64(b.minutesRemaining / 60))
        w.append(UInt8(ascii: ":"))
        w.appendDecimal(UInt64(b.minutesRemaining % 60), minimumDigits: 2)
    }
}
