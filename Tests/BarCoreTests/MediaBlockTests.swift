@testable import BarCore
import SnapshotCodec
import XCTest

/// The media block: made from its part's table like the other listed blocks, plus its texts
/// (title, artist, album, status), `format_paused`, and the clicks that play, pause and skip
/// through the media helper on the player the block shows.
final class MediaBlockTests: XCTestCase {
    let now = Fixture.station.nowMs
    let media = BlockKind.listed(.media)!

    func config(_ text: String) throws -> BarConfig {
        try Array(text.utf8).withUnsafeBytes { BarConfig.parse($0) }.get()
    }

    func reason(_ text: String) -> String {
        guard case .failure(let e) = Array(text.utf8).withUnsafeBytes({ BarConfig.parse($0) }) else { return "accepted" }
        return String(decoding: e.reason, as: UTF8.self)
    }

    /// The station's player with `change` applied.
    func station(_ change: (inout PartReading) -> Void = { _ in }) -> Snapshot {
        var s = Fixture.station.snapshot
        _ = s.listed.update(.media) { change(&$0[0]) }
        return s
    }

    func testTheBlockShowsArtistAndTitleWhilePlayingAndItsStatusOtherwise() throws {
        XCTAssertEqual(rendered(station(), .text, blocks: [media], nowMs: now), "media Radiohead - Nude\n")
        let paused = station { $0[MediaPart.playing] = 0; $0.setText(MediaPart.status, Array("paused".utf8)) }
        XCTAssertEqual(rendered(paused, .text, blocks: [media], nowMs: now), "media paused: Radiohead - Nude\n")
        let noArtist = station { $0.setText(MediaPart.artist, EmptyCollection<UInt8>()) }
        XCTAssertEqual(rendered(noArtist, .text, blocks: [media], nowMs: now), "media Nude\n")
        let noTrack = station { $0.setText(MediaPart.title, EmptyCollection<UInt8>()) }
        XCTAssertEqual(rendered(noTrack, .text, blocks: [media], nowMs: now), "media Spotify\n", "the player's own name")
        let line = rendered(station(), .i3bar, blocks: [media], nowMs: now)
        let blocks = try XCTUnwrap(parseJSON(line) as? [[String: Any]])
        XCTAssertEqual(blocks[0]["name"] as? String, "media")
        XCTAssertEqual(blocks[0]["short_text"] as? String, "media Nude", "short: the title alone")
        XCTAssertEqual(media.placeholders.map { $0.name.description },
                       ["playing", "length", "position", "source", "label", "player", "title", "artist", "album", "status"])
    }

    func testATitleIsEscapedForEachOutput() throws {
        let hostile = station { $0.setText(MediaPart.title, Array("<b>\"x\"</b>\u{1B}&".utf8)) }
        let i3bar = rendered(hostile, .i3bar, blocks: [media], nowMs: now)
        let blocks = try XCTUnwrap(parseJSON(i3bar) as? [[String: Any]], i3bar)
        XCTAssertEqual(blocks[0]["full_text"] as? String, "media Radiohead - <b>\"x\"</b> &", "a control byte as a space")
        XCTAssertFalse(rendered(hostile, .text, blocks: [media], nowMs: now).utf8.contains(0x1B), "no control byte reaches a text bar")
    }

    func testFormatAndFormatPausedTakeThePlaceholdersAndTheKeyIsChecked() throws {
        let c = try config("""
            [[block]]
            block = "media"
            format = "{artist} – {title} ({album}, {length}, {player}/{label})"
            format_paused = "{status}: {title}"
            """)
        let blocks = try XCTUnwrap(c.blocks)
        XCTAssertEqual(rendered(station(), .text, blocks: blocks, nowMs: now), "Radiohead – Nude (In Rainbows, 03:35, spotify/Spotify)\n")
        let stopped = station { $0[MediaPart.playing] = 0; $0.setText(MediaPart.status, Array("stopped".utf8)) }
        XCTAssertEqual(rendered(stopped, .text, blocks: blocks, nowMs: now), "stopped: Nude\n")
        XCTAssertTrue(reason("[[block]]\nblock = \"cpu\"\nformat_paused = \"x\"\n").contains("unknown key"), "only media takes it")
        XCTAssertTrue(reason("[[block]]\nblock = \"media\"\nformat_paused = \"{volume}\"\n").contains("volume"))
        XCTAssertTrue(reason("[[block]]\nblock = \"media\"\nformat_pasued = \"x\"\n").contains("did you mean \"format_paused\""))
    }

    /// As waybar's mpris writes them: minutes and seconds, hours from an hour; `n/a` where the
    /// player gives none.
    func testPositionAndLengthAreMinutesAndSecondsAndHoursFromAnHour() throws {
        let blocks = try XCTUnwrap(config("[[block]]\nblock = \"media\"\nformat = \"{title} {position}/{length}\"\n").blocks)
        XCTAssertEqual(rendered(station { $0[MediaPart.position] = 65 }, .text, blocks: blocks, nowMs: now), "Nude 01:05/03:35\n")
        let long = station { $0[MediaPart.position] = 59; $0[MediaPart.length] = 3723 }
        XCTAssertEqual(rendered(long, .text, blocks: blocks, nowMs: now), "Nude 00:59/01:02:03\n")
        let none = station { $0[MediaPart.position] = nil; $0[MediaPart.length] = nil }
        XCTAssertEqual(rendered(none, .text, blocks: blocks, nowMs: now), "Nude n/a/n/a\n")
    }

    func testClicksPlayPauseGoBackAndSkipOnThePlayerTheBlockShows() {
        var r = Renderer(output: .i3bar, blocks: [BarBlock(media)])
        XCTAssertEqual(r.click(ClickEvent(block: media, button: 1)), .none, "nothing shown yet: no player to control")
        r.render(station(), nowMs: now)
        let spotify = Array("spotify".utf8)
        XCTAssertEqual(r.click(ClickEvent(block: media, button: 1)), .media(MediaControl(player: spotify, action: Array("play-pause".utf8))))
        XCTAssertEqual(r.click(ClickEvent(block: media, button: 2)), .media(MediaControl(player: spotify, action: Array("previous".utf8))))
        XCTAssertEqual(r.click(ClickEvent(block: media, button: 3)), .media(MediaControl(player: spotify, action: Array("next".utf8))))
        XCTAssertEqual(r.click(ClickEvent(block: media, button: 4)), .none)
        XCTAssertEqual(MediaControl(player: spotify, action: Array("next".utf8)).arguments.map { String(decoding: $0, as: UTF8.self) },
                       ["control", "spotify", "next"])
        var gone = station()
        _ = gone.listed.update(.media) { $0 = [] }
        r.render(gone, nowMs: now)
        XCTAssertEqual(r.click(ClickEvent(block: media, button: 1)), .none, "the player gone: nothing to control")
    }

    func testAClickTableEntryReplacesTheBlocksOwnActionForItsButton() throws {
        let c = try config("[[block]]\nblock = \"media\"\n[[block.click]]\nbutton = \"right\"\ncmd = \"spotify\"\n")
        var r = Renderer(output: .i3bar, blocks: try XCTUnwrap(c.blocks))
        r.render(station(), nowMs: now)
        XCTAssertEqual(r.click(ClickEvent(block: media, button: 3)), .run(Array("spotify".utf8)))
        if case .media = r.click(ClickEvent(block: media, button: 1)) {} else { XCTFail("the left button keeps its own action") }
    }

    func testTheArgumentPicksAPlayerAndWithoutOneTheBlockHidesAndWithoutABusSaysNA() throws {
        var two = station()
        var mpv = PartReading()
        mpv.reset(source: Array("mpv".utf8), label: Array("mpv Media Player".utf8))
        mpv[MediaPart.playing] = 0
        mpv.setText(MediaPart.title, Array("clip.mkv".utf8))
        mpv.setText(MediaPart.status, Array("paused".utf8))
        _ = two.listed.update(.media) { $0.append(mpv) }
        let c = try config("[[block]]\nblock = \"media\"\nplayer = \"mpv\"\n[[block]]\nblock = \"media\"\nplayer = \"vlc\"\n")
        XCTAssertEqual(rendered(two, .text, blocks: try XCTUnwrap(c.blocks) + [BarBlock(.load)], nowMs: now).hasPrefix("media paused: clip.mkv | load "),
                       true, "no vlc running: its block hides")
        var none = station()
        _ = none.listed.update(.media) { $0 = [] }
        XCTAssertEqual(rendered(none, .text, blocks: [BarBlock(media), BarBlock(.load)], nowMs: now).hasPrefix("load "), true,
                       "no player: hidden, named or not")
        var noBus = station()
        noBus.available.subtract(SnapshotSections(tag: .media)!)
        _ = noBus.listed.update(.media) { $0 = [] }
        XCTAssertEqual(rendered(noBus, .text, blocks: [media], nowMs: now), "media n/a\n", "no session bus answers: n/a")
        var hidden = BarBlock(media)
        hidden.hideMissing = true
        XCTAssertEqual(rendered(noBus, .text, blocks: [hidden, BarBlock(.load)], nowMs: now).hasPrefix("load "), true)
        XCTAssertTrue(media.descriptor.hiddenWhenMissingByDefault, "the default bar hides it where no player runs")
    }
}
