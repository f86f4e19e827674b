import ProcFS
import SnapshotCodec
import XCTest

/// The sound helper's frames as the sampler reads them (ProcFS/AudioHelperFrame.swift): whole
/// frames only, the last one wins, anything malformed skipped, nothing trusted.
final class AudioHelperOutputTests: XCTestCase {
    private func output(_ text: String) -> AudioHelperOutput {
        let o = AudioHelperOutput()
        Array(text.utf8).withUnsafeBytes { o.append($0) }
        return o
    }

    private func string(_ bytes: [UInt8]?) -> String? { bytes.map { String(decoding: $0, as: UTF8.self) } }

    func testAFrameGivesTheDefaultOutputAndInputWithPortDescriptionVolumeAndMute() {
        let o = output("sink\t4000\t0\tHeadphones\tBuilt-in Audio Analog Stereo\nsource\t6000\t1\t\tUSB Mic\nend\n")
        XCTAssertTrue(o.takeFrames())
        XCTAssertEqual(o.state, .connected)
        XCTAssertEqual(string(o.output?.source), "Headphones")
        XCTAssertEqual(string(o.output?.label), "Built-in Audio Analog Stereo")
        XCTAssertEqual(o.output?[VolumePart.volume], 4000)
        XCTAssertEqual(o.output?[VolumePart.muted], 0)
        XCTAssertEqual(string(o.input?.source), "", "no active port: an empty source")
        XCTAssertEqual(string(o.input?.label), "USB Mic")
        XCTAssertEqual(o.input?[VolumePart.muted], 1)
    }

    func testHalfAFrameWaitsForItsEndAndTheLastWholeFrameWins() {
        let o = output("sink\t100\t0\t\tA\nend\nsink\t200\t0\t\tB\nend\nsink\t300\t0\t\tC\n")
        XCTAssertTrue(o.takeFrames())
        XCTAssertEqual(o.output?[VolumePart.volume], 200, "the third frame has no end yet")
        XCTAssertNil(o.input, "a frame without a source line: the server has no default input")
        Array("end\n".utf8).withUnsafeBytes { o.append($0) }
        XCTAssertTrue(o.takeFrames())
        XCTAssertEqual(o.output?[VolumePart.volume], 300)
        XCTAssertFalse(o.takeFrames(), "nothing new")
    }

    func testADownFrameTakesTheDevicesAwayAndSaysWhy() {
        let o = output("sink\t100\t0\t\tA\nend\ndown\tConnection refused\nend\n")
        XCTAssertTrue(o.takeFrames())
        XCTAssertEqual(o.state, .down)
        XCTAssertNil(o.output)
        XCTAssertEqual(string(o.reason), "Connection refused")
        Array("sink\t500\t0\t\tA\nend\n".utf8).withUnsafeBytes { o.append($0) }
        XCTAssertTrue(o.takeFrames())
        XCTAssertEqual(o.state, .connected, "the server back")
        XCTAssertEqual(o.output?[VolumePart.volume], 500)
        let failed = output("error\tlibpulse.so.0 not found\nend\n")
        XCTAssertTrue(failed.takeFrames())
        XCTAssertEqual(failed.state, .failed)
        XCTAssertEqual(string(failed.reason), "libpulse.so.0 not found")
    }

    func testMalformedLinesAreSkippedAndFiguresClampedNeverTrusted() {
        let o = output("""
            sink\t-5\t0\t\tnegative
            sink\t400\t2\t\tmute flag 2
            sink\t12345678901\t0\t\ttoo many digits
            sink\t400\t0\tonly four fields
            sink\t400\t0\tport\tsix\tfields
            speaker\t400\t0\t\tunknown word
            \t\t\t\t
            source\t99999999\t1\tport\tloud

            end

            """)
        XCTAssertTrue(o.takeFrames())
        XCTAssertNil(o.output, "no sink line could be read")
        XCTAssertEqual(o.input?[VolumePart.volume], AudioHelperOutput.maximumVolume, "clamped to 1,000 %")
        XCTAssertEqual(o.input?[VolumePart.muted], 1)
    }

    func testTextsAreCutAtTheReadingsLimitsAndALineLongerThanTheBufferIsDropped() {
        let long = String(repeating: "p", count: 300), description = String(repeating: "d", count: 900)
        let o = output("sink\t1\t0\t\(long)\t\(description)\nend\n")
        XCTAssertTrue(o.takeFrames())
        XCTAssertEqual(o.output?.source.count, Snapshot.maximumInterfaceNameLength)
        XCTAssertEqual(o.output?.label.count, Snapshot.maximumPathLength)
        let flood = output(String(repeating: "x", count: AudioHelperOutput.capacity * 2) + "\nsink\t7\t0\t\tA\nend\n")
        XCTAssertTrue(flood.takeFrames())
        XCTAssertEqual(flood.output?[VolumePart.volume], 7, "the frame after the flood is read")
    }

    func testAResetForgetsTheLastHelpersFrame() {
        let o = output("sink\t100\t0\t\tA\nend\nsink\t2")
        XCTAssertTrue(o.takeFrames())
        o.reset()
        XCTAssertEqual(o.state, .starting)
        XCTAssertNil(o.output)
        Array("00\t0\t\tB\nend\n".utf8).withUnsafeBytes { o.append($0) }
        XCTAssertTrue(o.takeFrames())
        XCTAssertNil(o.output, "the half line before the reset is gone with it")
    }
}
