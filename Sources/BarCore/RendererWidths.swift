// How a block whose clicks change its text keeps its width (Renderer.swift's render loop
// calls it for the i3bar output).

extension Renderer {
    /// Keeps a block from jumping: mem (whose clicks cycle its forms unless its own click
    /// entries do something else) takes the widest text its current form has shown, so the
    /// figures changing move nothing and another form brings its own width, not the widest
    /// form's for good; a block whose click toggles its short text the same for its full and
    /// its short text (the clock's `20:28` takes its own width, not the full date's). Called
    /// with the text shown (the short one in place of the full).
    ///
    /// The width is a `min_width` where the block has no narrower short text. Where it has one,
    /// i3bar and swaybar would pad the short text to that `min_width` too in their short mode
    /// (a crowded bar), leaving a hole the size of the difference; so there each text is padded
    /// with spaces to the widest of its own kind shown, and no `min_width` is given.
    mutating func sizeForClicks(_ index: Int, _ block: BarBlock) {
        let cycles = block.kind.descriptor.hasForms && !block.clicks.contains { $0.kind != .cycle && ($0.button == 1 || $0.button == 3) }
        let toggles = block.clicks.contains { $0.kind == .toggleFormat }
        guard cycles || toggles else { return }
        value.minWidth.reset()
        let short = showingShort[index]
        let narrowerShort = !value.short.isEmpty && displayWidth(value.short) < displayWidth(value.full)
        if widestForm[index] != memForm || widestShort[index] != short {
            widestShown[index].reset()
            widestShownShort[index].reset()
            widestForm[index] = memForm
            widestShort[index] = short
        }
        if displayWidth(value.full) > displayWidth(widestShown[index]) {
            widestShown[index].reset()
            widestShown[index].append(value.full)
        }
        guard narrowerShort else {
            value.minWidth.append(widestShown[index])
            return
        }
        if displayWidth(value.short) > displayWidth(widestShownShort[index]) {
            widestShownShort[index].reset()
            widestShownShort[index].append(value.short)
        }
        Self.pad(&value.full, to: displayWidth(widestShown[index]))
        Self.pad(&value.short, to: displayWidth(widestShownShort[index]))
    }

    /// Appends spaces to `text` until it is `width` characters wide.
    private static func pad(_ text: inout ByteWriter, to width: Int) {
        var n = 0
        for b in text.bytes where b & 0xC0 != 0x80 { n += 1 }
        while n < width {
            text.append(UInt8(ascii: " "))
            n += 1
        }
    }

    /// Characters of `text` (UTF-8 lead bytes): the bar's font is monospace.
    func displayWidth(_ text: ByteWriter) -> Int {
        var n = 0
        for b in text.bytes where b & 0xC0 != 0x80 { n += 1 }
        return n
    }
}
