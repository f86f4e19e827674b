import SnapshotCodec

// A click on a built-in block: the user's `[[block.click]]` for its button, else what the
// block does itself (mem's forms, a sound block's volume, the media block's player).
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
            let step = Int32(block.soundStep) * 100, maximum = Int32(block.soundMaximum) * 100
            let device = bytes(sound.device)
            switch click.button {
            case 1: return .sound(SoundChange(device: device, toggleMute: true, deltaPermyriad: 0, maximumPermyriad: maximum))
            case 4: return .sound(SoundChange(device: device, toggleMute: false, deltaPermyriad: step, maximumPermyriad: maximum))
            case 5: return .sound(SoundChange(device: device, toggleMute: false, deltaPermyriad: -step, maximumPermyriad: maximum))
            default: return .none
            }
        }
        if let media = block.kind.descriptor.media {
            // waybar's mpris module: left click play/pause, middle previous, right next.
            let player = shownPlayers[index]
            guard !player.isEmpty else { return .none }
            switch click.button {
            case 1: return .media(MediaControl(player: player, action: bytes("play-pause")))
            case 2: return .media(MediaControl(player: player, action: bytes("previous")))
            case 3: return .media(MediaControl(player: player, action: bytes("next")))
            default: return .none
            }
        }
        guard block.kind.descriptor.hasForms else { return .none }
        switch click.button {
        case 1: memForm = memForm.next; return .redraw
        case 3: memForm = memForm.previous; return .redraw
        default: return .none
        }
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
}
