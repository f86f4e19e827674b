import SnapshotCodec
import XCTest

/// A renderer's wants file: the parts line, then `disk`/`sensor`/`net` lines naming what its
/// blocks need measured. What a newer renderer adds is passed over, never a refusal of the file.
final class RendererRequestTests: XCTestCase {
    func parse(_ text: String) -> RendererRequest? {
        Array(text.utf8).withUnsafeBytes { RendererRequest(wantsFile: $0) }
    }

    func testAPartsOnlyFileFromAnOlderRendererStillParses() {
        XCTAssertEqual(parse("3\n"), RendererRequest(parts: SnapshotSections(rawValue: 3)))
        XCTAssertEqual(parse("3"), RendererRequest(parts: SnapshotSections(rawValue: 3)))
        XCTAssertNil(parse(""))
        XCTAssertNil(parse("x\n"))
        XCTAssertNil(parse("4294967296\n"), "over UInt32.max")
        XCTAssertNil(parse("\ndisk /home\n"), "no parts line")
    }

    func testNamesRoundTripInTheOrderAskedWithoutRepeats() {
        var request = RendererRequest(parts: [.disks, .network])
        request.ask(.disk, Array("/home".utf8))
        request.ask(.disk, Array("/home".utf8))
        request.ask(.sensor, Array("coretemp/Package id 0".utf8))
        request.ask(.interface, Array("wg0".utf8))
        XCTAssertEqual(request.disks.count, 1)
        let text = String(decoding: request.wantsFileText, as: UTF8.self)
        XCTAssertEqual(text, "\(request.parts.rawValue)\ndisk /home\nsensor coretemp/Package id 0\nnet wg0\n")
        XCTAssertEqual(parse(text), request)
    }

    /// The config refuses a relative mount point; so does the wants file, which anyone who can
    /// write the runtime directory's wants folder could have written.
    func testARelativeMountOrOneWithDotDotIsPassedOver() {
        let parsed = parse("1\ndisk relative\ndisk ../../../etc\ndisk /a/../etc\ndisk /a/.\ndisk /home/me\ndisk /\n")
        XCTAssertEqual(parsed?.disks, [Array("/home/me".utf8), Array("/".utf8)])
    }

    func testUnknownKindsBadNamesAndExtrasArePassedOver() {
        let long = String(repeating: "a", count: RendererRequest.maximumNameLength + 1)
        let parsed = parse("1\nfan cpu0\ndisk \ndisk\ndisk /a\u{1B}b\ndisk \(long)\nsensor x\r\n\nnet eth0\nnet eth0")
        XCTAssertEqual(parsed?.disks, [])
        XCTAssertEqual(parsed?.sensors, [], "a carriage return is a control byte")
        XCTAssertEqual(parsed?.interfaces, [Array("eth0".utf8)])
        var many = "1\n"
        for i in 0..<20 { many += "disk /m\(i)\n" }
        XCTAssertEqual(parse(many)?.disks.count, RendererRequest.maximumNames)
        XCTAssertNil(parse("1\n" + String(repeating: "x", count: RendererRequest.maximumFileSize)), "over the size limit")
    }

    func testMergingTwoRenderersUnitesPartsAndNames() {
        var a = parse("1\ndisk /home\nnet wg0\n")!
        a.merge(parse("2\ndisk /home\ndisk /srv\n")!)
        XCTAssertEqual(a.parts, SnapshotSections(rawValue: 3))
        XCTAssertEqual(a.disks, [Array("/home".utf8), Array("/srv".utf8)])
        XCTAssertEqual(a.interfaces, [Array("wg0".utf8)])
    }
}
