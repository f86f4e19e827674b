import BarCore
import Foundation
import SnapshotCodec
import XCTest

final class EscapeTests: XCTestCase {
    func escaped(_ bytes: [UInt8], _ mode: TextEscape) -> String {
        var w = ByteWriter(capacity: 64)
        w.append(escaped: bytes, mode)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    func testJSONTurnsEveryControlCharacterIntoASpaceAndEscapesQuoteAndBackslash() throws {
        let input: [UInt8] = Array(0...0x1F) + [0x7F, 0x22, 0x5C, 0x2F, 0x41]
        for mode in [TextEscape.json, .pangoJSON] {
            let out = escaped(input, mode)
            let parsed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data("\"\(out)\"".utf8), options: [.fragmentsAllowed]) as? String)
            XCTAssertFalse(parsed.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(mode): \(out)")
            XCTAssertFalse(out.contains("\\u00"), "no control character comes back escaped either: \(out)")
        }
        XCTAssertEqual(escaped(input, .json), String(repeating: " ", count: 33) + #"\"\\/A"#)
        XCTAssertEqual(escaped(Array("a\u{0}b\n\t\u{1B}[31m".utf8), .json), "a b   [31m", "a NUL would end the string for Pango")
    }

    func testInvalidUTF8BecomesReplacementCharacters() {
        // Lone continuation, truncated 2-byte, overlong "/", surrogate, above U+10FFFF, valid é€😀.
        let input: [UInt8] = [0x80, 0xC3, 0xC0, 0xAF, 0xED, 0xA0, 0x80, 0xF4, 0x90, 0x80, 0x80]
            + Array("é€😀".utf8)
        let expected = String(repeating: "\u{FFFD}", count: 11) + "é€😀"
        XCTAssertEqual(escaped(input, .json), expected)
        XCTAssertEqual(escaped(input, .plain), expected)
    }

    func testPangoEscapingTurnsMarkupIntoEntitiesThenJSON() {
        XCTAssertEqual(escaped(Array(#"</span><b a='1'>&"\"#.utf8), .pangoJSON),
                       #"&lt;/span&gt;&lt;b a=&#39;1&#39;&gt;&amp;&quot;\\"#)
    }

    func testPlainTextTurnsControlCharactersIntoSpaces() {
        XCTAssertEqual(escaped(Array("a\nb\u{1B}[31mc".utf8), .plain), "a b [31mc")
    }

    func testBidiAndOtherInvisibleFormatCharactersAreDroppedInEveryMode() {
        // RLO, LRI…PDI, RLM, ALM, ZWSP, LINE SEPARATOR, a tag character: nothing of them reaches a bar.
        let input = Array("a\u{202E}b\u{2066}c\u{2069}d\u{200F}e\u{061C}f\u{200B}g\u{2028}h\u{E0041}i".utf8)
        for mode in [TextEscape.plain, .json, .pango, .pangoJSON] {
            XCTAssertEqual(escaped(input, mode), "abcdefghi", "\(mode)")
        }
        XCTAssertEqual(escaped(Array("Ünïcødé 日本 😀".utf8), .pango), "Ünïcødé 日本 😀", "visible characters stay")
    }

    func testC1ControlsAreControlCharacters() {
        let input = Array("a\u{9B}31mb\u{85}c".utf8)
        XCTAssertEqual(escaped(input, .plain), "a 31mb c")
        XCTAssertEqual(escaped(input, .pango), "a 31mb c")
        XCTAssertEqual(escaped(input, .json), "a 31mb c")
        XCTAssertEqual(escaped(input, .pangoJSON), "a 31mb c")
    }
}

extension EscapeTests {
    /// tmux, lemonbar and polybar read markup in the text they show: a process name must bring none.
    func testTmuxLemonbarAndPolybarOutputsEscapeTheirBarsMarkup() {
        func line(_ output: OutputKind, _ name: String) -> String {
            var snapshot = Snapshot()
            snapshot.timestampMs = 1_000
            var exit = ExitEntry(pid: 7, timeMs: 900, lastPrivateKiB: 2048, freedKiB: 0)
            exit.name = Array(name.utf8)
            snapshot.exits = [exit]
            snapshot.cpuBusy = 1200
            var r = Renderer(output: output, blocks: [.cpu, .exited])
            r.render(snapshot, nowMs: 1_000)
            return String(decoding: r.line.bytes, as: UTF8.self)
        }
        XCTAssertEqual(line(.tmux, "#(touch x)#[fg=red]"), "cpu 12% | exited ##(touch x)##[fg=red] had 2.0M\n")
        XCTAssertEqual(line(.lemonbar, "%{A:touch x:}a%{A}"), "cpu 12%% | exited %%{A:touch x:}a%%{A} had 2.0M\n")
        XCTAssertEqual(line(.polybar, "%{A1:touch x:}a%{A}"), "cpu 12% | exited % {A1:touch x:}a% {A} had 2.0M\n")
        XCTAssertEqual(line(.text, "%{A}#(x)"), "cpu 12% | exited %{A}#(x) had 2.0M\n", "plain text stays as it is")
    }

    /// Runs of plain ASCII are copied at once (a short run byte by byte, a long one in one
    /// copy); the text must come out as it does character by character, in every mode,
    /// with the special characters, controls, UTF-8 and invalid bytes around the runs.
    func testCopiedRunsEscapeAsCharacterByCharacterInEveryMode() {
        let pieces: [[UInt8]] = [Array("a".utf8), Array("0123456789abcdef".utf8), Array("0123456789abcdefg".utf8),
                                 Array("\"".utf8), Array("\\".utf8), Array("&<>'#%{".utf8), Array("%{".utf8),
                                 [0x0A], [0x01], [0x7F], Array("é".utf8), Array("😀".utf8), [0xC2, 0x9B], [0x80], [0xE2, 0x80],
                                 Array(" ".utf8), Array(String(repeating: "x", count: 40).utf8)]
        var state: UInt64 = 12345
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % n
        }
        for mode in [TextEscape.plain, .json, .pangoJSON, .pango, .tmux, .lemonbar, .polybar] {
            for _ in 0..<300 {
                let chosen = (0..<(1 + next(8))).map { _ in pieces[next(pieces.count)] }
                var whole = ByteWriter(capacity: 16), bit = ByteWriter(capacity: 16)
                whole.append(escaped: chosen.flatMap { $0 }, mode)
                // Each ASCII byte on its own (no run longer than one); neighbouring non-ASCII
                // pieces together, since together they may decode as one character.
                var pending: [UInt8] = []
                for piece in chosen {
                    if piece.allSatisfy({ $0 < 0x80 }) {
                        if !pending.isEmpty { bit.append(escaped: pending, mode); pending = [] }
                        for b in piece { bit.append(escaped: [b], mode) }
                    } else {
                        pending += piece
                    }
                }
                if !pending.isEmpty { bit.append(escaped: pending, mode) }
                XCTAssertEqual(whole.bytes, bit.bytes, "\(mode): \(chosen)")
            }
        }
    }
}
