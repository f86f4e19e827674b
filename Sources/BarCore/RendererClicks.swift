import SnapshotCodec

// A click on a built-in block: the user's `[[block.click]]` for its button, else what the
// block does itself (mem's forms, a sound block's volume, the media block's player, the
// backlight's brightness).
extension Renderer {
    /// Applies a click: a left click (button 1) on mem shows the next form, a right
    /// click (button 3) the previous one. Returns true when the output changes.
    public mutating func handleClick(_ click: ClickEvent) -> Bool { self.click(click) == .redraw }

    /// Applies a click on a built-in block: the block's `[[block.click]]` entry for the button
    /// if it has one, else its own behaviour (mem: left the next form, right the previous).
    public mutating func click(_ click: ClickEvent) -> ClickOutcome {
        guard let index = blockIndex(of: click) else { return .none }
        let block = blocks[index]
        for action in block.clicks where action.button == click.button {
            switch action.kind {
            case .run(let command): return .run(command)
            case .cycle:
                guard block.kind.descriptor.hasForms else { return .none }
                memForm = memForm.next
                return .redraw
            case .toggleFormat:
                showingShort[index].toggle()
                return .redraw
            }
        }
        if let sound = block.kind.descriptor.sound {
            // i3status-rust's sound block and waybar's pulseaudio module: the wheel changes the
            // volume by the step, a left click mutes or unmutes.
            let step = Int32(block.wheelStep) * 100, maximum = Int32(block.soundMaximum) * 100
            let device = bytes(sound.device)
            switch click.button {
            case 1: return .sound(SoundChange(device: device, toggleMute: true, deltaPermyriad: 0, maximumPermyriad: maximum))
            case 4: return .sound(SoundChange(device: device, toggleMute: false, deltaPermyriad: step, maximumPermyriad: maximum))
            case 5: return .sound(SoundChange(device: device, toggleMute: false, deltaPermyriad: -step, maximumPermyriad: maximum))
            default: return .none
            }
        }
        if block.kind.descriptor.media != nil {
            // waybar's mpris module: left click play/pause, middle previous, right next.
            guard let player = shownReadings[index]?.source else { return .none }
            switch click.button {
            case 1: return .media(MediaControl(player: player, action: bytes("play-pause")))
            case 2: return .media(MediaControl(player: player, action: bytes("previous")))
            case 3: return .media(MediaControl(player: player, action: bytes("next")))
            default: return .none
            }
        }
        if block.kind.descriptor.setsBrightness {
            // i3status-rust's backlight block and waybar's: the wheel by the step.
            guard click.button == 4 || click.button == 5, let shown = shownReadings[index] else { return .none }
            return Self.brightness(shown, up: click.button == 4, stepPercent: block.wheelStep).map { .brightness($0) } ?? .none
        }
        guard block.kind.descriptor.hasForms else { return .none }
        switch click.button {
        case 1: memForm = memForm.next; return .redraw
        case 3: memForm = memForm.previous; return .redraw
        default: return .none
        }
    }

    /// What a click's command learns of the reading the clicked block shows in `snap` (a
    /// listed part's block, `top:units`), as environment entries: `BLOCK_SOURCE`,
    /// `BLOCK_LABEL` and each of its part's texts by its placeholder (`BLOCK_UNIT`,
    /// `BLOCK_TITLE`). Values as the snapshot has them, a NUL left out: the command quotes them.
    public func readingEnvironment(of click: ClickEvent, in snap: Snapshot, nowMs: UInt64) -> [[UInt8]] {
        guard let index = blockIndex(of: click) else { return [] }
        let block = blocks[index], d = block.kind.descriptor
        guard let part = d.readingPart?(block.argument), let reading = d.reading,
              let r = reading(snap, BlockContext(block, nowMs: nowMs, memForm: memForm, usage: RendererUsage())) else { return [] }
        func entry(_ name: [UInt8], _ value: [UInt8]) -> [UInt8] { Array("BLOCK_".utf8) + name + [UInt8(ascii: "=")] + value.filter { $0 != 0 } }
        var out = [entry(Array("SOURCE".utf8), r.source), entry(Array("LABEL".utf8), r.label)]
        for t in 0..<part.texts.count {
            let name = bytes(part.texts[t].placeholder).map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }
            out.append(entry(name, r.text(t)))
        }
        return out
    }

    /// The block a click names: its kind and instance (the argument, else the kind's name);
    /// a click without an instance names the first block of its kind.
    func blockIndex(of click: ClickEvent) -> Int? {
        for (i, block) in blocks.enumerated() where block.kind == click.block && !block.kind.runsCommand {
            if click.instance.isEmpty { return i }
            let instance = block.argument.isEmpty ? bytes(block.kind.name) : block.argument
            if instance == click.instance { return i }
        }
        return nil
    }

    /// The brightness a wheel step up or down from `shown` sets: `stepPercent` of the highest
    /// step (at least one step), never below 1 % of it (at least one: a dark screen is not
    /// what a wheel is for) nor above it; nil without its figures.
    static func brightness(_ shown: PartReading, up: Bool, stepPercent: UInt32) -> BrightnessChange? {
        guard let current = shown[BacklightPart.brightness], let highest = shown[BacklightPart.maximum],
              highest > 0, highest <= Int64(UInt32.max), current >= 0 else { return nil }
        let step = max(1, highest * Int64(stepPercent) / 100)
        let lowest = max(1, highest / 100)
        let value = min(highest, max(lowest, up ? current + step : current - step))
        return BrightnessChange(device: shown.label, value: UInt32(value))
    }
}
