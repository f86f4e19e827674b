import SnapshotCodec
import TestSupport
import XCTest

/// docs/snapshot-format.md says which version of each section the writer writes; it once said
/// `1` of every one while processes, top and GPU wrote 2 (issue 58). The sentence is written
/// from the section headers of an encoded snapshot with every part (SYSSTATS_UPDATE_MANUAL=1,
/// scripts/generate-manual.sh) and compared with the document otherwise.
final class SectionVersionsDocTests: XCTestCase {
    func testTheDocumentSaysTheVersionEachSectionIsWrittenIn() throws {
        let written = Self.sections(of: encoded(fullSnapshot()))
        XCTAssertEqual(written.map { $0.tag }, SectionTag.allCases.map(\.rawValue), "a snapshot with every part has every section")
        let differing = try ReferenceSections.differing([("section versions", Self.versionsText(written))], in: "docs/snapshot-format.md")
        XCTAssertEqual(differing, [], "docs/snapshot-format.md differs from the sections' versions: run scripts/generate-manual.sh")
    }

    func testTheSentenceGroupsTheSectionsOfEachNewerVersion() {
        XCTAssertEqual(Self.versionsText([(1, 1), (7, 2), (9, 3), (17, 2)]),
                       "The writer writes version 2 of processes (tag 7) and gpu (tag 17), version 3 of top (tag 9), "
                       + "and version 1 of every other section.\n")
        XCTAssertEqual(Self.versionsText([(1, 1), (2, 1)]), "The writer writes version 1 of every section.\n")
    }

    /// Each section's tag and version, in the order of the file (format v3's framing).
    static func sections(of bytes: [UInt8]) -> [(tag: UInt16, version: UInt16)] {
        func u16(_ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { Int(u16(at)) | Int(u16(at + 2)) << 16 }
        var found: [(tag: UInt16, version: UInt16)] = []
        var at = Int(u16(10))
        let end = min(u32(12), bytes.count)
        while at + sectionHeaderLength <= end {
            found.append((u16(at), u16(at + 2)))
            at += sectionHeaderLength + u32(at + 4)
        }
        return found
    }

    /// The document's sentence: the sections of each version above 1, the rest at 1.
    static func versionsText(_ sections: [(tag: UInt16, version: UInt16)]) -> String {
        func name(_ tag: UInt16) -> String { SectionTag(rawValue: tag).map { "\($0)" } ?? "section \(tag)" }
        var parts: [String] = []
        for version in Set(sections.map { $0.version }.filter { $0 != 1 }).sorted() {
            let named = sections.filter { $0.version == version }.map { "\(name($0.tag)) (tag \($0.tag))" }
            parts.append("version \(version) of " + spoken(named))
        }
        if parts.isEmpty { return "The writer writes version 1 of every section.\n" }
        return "The writer writes " + parts.joined(separator: ", ") + ", and version 1 of every other section.\n"
    }

    /// `a, b and c`.
    static func spoken(_ names: [String]) -> String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    }
}
