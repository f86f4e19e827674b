import ProcFS
import SnapshotCodec
import XCTest

/// The media helper's frames as the sampler reads them (ProcFS/MediaHelperFrame.swift): whole
/// frames only, the last one wins, anything malformed skipped, nothing trusted.
final class MediaHelperOutputTests: XCTestCase {
    private func output(_ text: String) -> MediaHelperOutput {
        let o = MediaHelperOutput()
        Array(text.utf8).withUnsafeBytes { o.append($0) }
        return o
    }

    private func string(_ bytes: [UInt8]?) -> String? { bytes.map { String(decoding: $0, as: UTF8.self) } }

    func testAFrameGivesEachPlayerWithItsStatusTrackAndLengthInOrder() {
        let o = output("player\tspotify\tSpotify\tplaying\t215\tNude\tRadiohead\tIn Rainbows\n"
                       + "player\tmpv\tmpv Media Player\tpaused\t\tclip.mkv\t\t\nend\n")
        XCTAssertTrue(o.takeFrames())
        XCTAssertEqual(o.state, .connected)
        XCTAssertEqual(o.players.count, 2)
        let first = o.players[0], second = o.players[1]
        XCTAssertEqual(string(first.source), "spotify")
        XCTAssertEqual(string(first.label), "Spotify")
        XCTAssertEqual(first[MediaPart.playing], 1)
        XCTAssertEqual(first[MediaPart.length], 215)
        XCTAssertEqual(string(first.text(MediaPart.title)), "Nude")
        XCTAssertEqual(string(first.text(MediaPart.artist)), "Radiohead")
        XCTAssertEqual(string(first.text(MediaPart.album)), "In Rainbows")
        XCTAssertEqual(string(first.text(MediaPart.status)), "playing")
        XCTAssertEqual(second[MediaPart.playing], 0)
        XCTAssertNil(second[MediaPart.length], "an empty length is not given")
        XCTAssertEqual(string(second.text(MediaPart.status)), "paused")
        XCTAssertEqual(string(second.text(MediaPart.artist)), "")
    }

    func testAFrameWithoutPlayersIsConnectedWithNoneAndTheLastWholeFrameWins() {
        let o = output("player\ta\tA\tplaying\t1\tt\t\t\nend\nend\nplayer\tb\tB\tpaused\t1\tt\t\t\n")
        XCTAssertTrue(o.takeFrames())
        XCTAssertEqual(o.state, .connected)
        XCTAssertEqual(o.players.count, 0, "the second frame (no player) wins; the third has no end yet")
        Array("end\n".utf8).withUnsafeBytes { o.append($0) }
        XCTAssertTrue(o.takeFrames())
        XCTAssertEqual(o.players.map { string($0.source) }, ["b"])
        XCTAssertFalse(o.takeFrames(), "nothing new")
    }

    func testADownFrameTakesThePlayersAwayAndSaysWhy() {
        let o = output("player\ta\tA\tplaying\t1\tt\t\t\nend\ndown\tConnection refused\nend\n")
        XCTAssertTrue(o.takeFrames())
        XCTAssertEqual(o.state, .down)
        XCTAssertEqual(o.players.count, 0)
        XCTAssertEqual(string(o.reason), "Connection refused")
        let failed = output("error\tlibsystemd.so.0 not found\nend\n")
        XCTAssertTrue(failed.takeFrames())
        XCTAssertEqual(failed.state, .failed)
        XCTAssertEqual(string(failed.reason), "libsystemd.so.0 not found")
    }

    func testMalformedLinesAreSkippedAndAtMostFourPlayersKept() {
        let o = output("""
            player\ta\tA\tdancing\t1\tunknown status\t\t
            player\tb\tB\tplaying\t-5\tnegative length\t\t
            player\tc\tC\tplaying\t1234567890\ttoo many digits\t\t
            player\td\tD\tplaying\t1\tseven fields\t
            player\te\tE\tplaying\t1\tnine\tfields\tare\tone too many
            song\tf\tF\tplaying\t1\tunknown word\t\t
            player\tg\tG\tstopped\t\t\t\t
            player\th\tH\tplaying\t\t\t\t
            player\ti\tI\tplaying\t\t\t\t
            player\tj\tJ\tplaying\t\t\t\t
            player\tk\tK\tplaying\t\t\t\t

            end

            """)
        XCTAssertTrue(o.takeFrames())
        XCTAssertEqual(o.players.map { string($0.source) }, ["g", "h", "i", "j"], "only well-formed lines, the first four")
        XCTAssertEqual(MediaHelperOutput.maximumPlayers, 4)
    }

    func testTextsAreCutAtTheReadingsLimitsAndALineLongerThanTheBufferIsDropped() {
        let word = String(repeating: "w", count: 40), title = String(repeating: "t", count: 127) + "☃"
        let o = output("player\t\(word)\tname\tplaying\t1\t\(title)\t\t\nend\n")
        XCTAssertTrue(o.takeFrames())
        XCTAssertEqual(o.players.first?.source.count, Snapshot.maximumInterfaceNameLength)
        XCTAssertEqual(o.players.first?.text(MediaPart.title).count, 127, "a character cut at 128 bytes goes whole")
        let flood = output(String(repeating: "x", count: MediaHelperOutput.capacity * 2) + "\nplayer\ta\tA\tpaused\t\t\t\t\nend\n")
        XCTAssertTrue(flood.takeFrames())
        XCTAssertEqual(flood.players.map { string($0.source) }, ["a"], "the frame after the flood is read")
    }

    /// A player says where it is only when read and when it jumps: between frames the
    /// position is counted on while it plays, at its rate, never past the track's length.
    func testAPlayingTracksPositionCountsOnFromItsFramesArrivalAtItsRate() {
        var now: UInt64 = 1_000_000_000
        let o = MediaHelperOutput()
        o.clock = { now }
        let frame = "player\ta\tA\tplaying\t215\tt\t\t\t60000\t1000\n"
            + "player\tb\tB\tplaying\t61\tt\t\t\t60500\t2000\n"
            + "player\tc\tC\tpaused\t215\tt\t\t\t90999\t1000\n"
            + "player\td\tD\tplaying\t\tstream\t\t\t\t1000\nend\n"
        Array(frame.utf8).withUnsafeBytes { o.append($0) }
        XCTAssertTrue(o.takeFrames())
        XCTAssertEqual(o.shown(atNs: now).map { $0[MediaPart.position] }, [60, 60, 90, nil])
        now += 5_500_000_000
        let later = o.shown(atNs: now)
        XCTAssertEqual(later.map { $0[MediaPart.position] }, [65, 61, 90, nil],
                       "5.5 s on: at 1× 65.5 s, at 2× 71.5 s but the track is 61 s long; paused stays; none stays none")
        XCTAssertEqual(later.map { $0[MediaPart.length] }, [215, 61, 215, nil])
        XCTAssertNil(o.players[0][MediaPart.position], "the frame's own readings keep no position: it is counted when shown")
        XCTAssertEqual(o.shown(atNs: 500_000_000).first?[MediaPart.position], 60, "a time before the frame counts nothing")
    }

    func testALineWithoutThePositionIsReadWithoutOneAndABadPositionOrRateDropsTheLine() {
        let o = output("""
            player\ta\tA\tplaying\t1\tfrom before the position\t\t
            player\tb\tB\tplaying\t1\tnot a number\t\t\t12x\t1000
            player\tc\tC\tplaying\t1\tno rate\t\t\t5\t
            player\td\tD\tplaying\t1\ttoo fast\t\t\t5\t100001
            player\te\tE\tplaying\t1\tten digits\t\t\t1234567890\t1000
            player\tf\tF\tplaying\t1\tfastest\t\t\t5\t100000
            end

            """)
        XCTAssertTrue(o.takeFrames())
        XCTAssertEqual(o.players.map { string($0.source) }, ["a", "f"])
        XCTAssertNil(o.shown(atNs: 0)[0][MediaPart.position])
    }

    func testAResetForgetsTheLastHelpersFrame() {
        let o = output("player\ta\tA\tplaying\t1\tt\t\t\nend\nplayer\tb")
        XCTAssertTrue(o.takeFrames())
        o.reset()
        XCTAssertEqual(o.state, .starting)
        XCTAssertEqual(o.players.count, 0)
        Array("\tB\tpaused\t\t\t\t\nend\n".utf8).withUnsafeBytes { o.append($0) }
        XCTAssertTrue(o.takeFrames())
        XCTAssertEqual(o.players.count, 0, "the half line before the reset is gone with it")
    }
}
