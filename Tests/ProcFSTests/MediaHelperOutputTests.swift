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
