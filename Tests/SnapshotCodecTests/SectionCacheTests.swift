import XCTest
@testable import SnapshotCodec

/// The cache's slots are packed one after another: a section kept at a new length moves the
/// ones after it. Whatever order and lengths sections are kept in, each slot must give back
/// exactly the bytes last kept in it.
final class SectionCacheTests: XCTestCase {
    private let capacities = [sectionHeaderLength + SectionTag.sampler.descriptor.maximumSize, sectionHeaderLength + SectionTag.network.descriptor.maximumSize,
                              sectionHeaderLength + SectionTag.disks.descriptor.maximumSize, sectionHeaderLength + SectionTag.diskIO.descriptor.maximumSize,
                              sectionHeaderLength + SectionTag.temperature.descriptor.maximumSize, sectionHeaderLength + SectionTag.frequency.descriptor.maximumSize]

    private func copied(_ cache: SectionCache, _ slot: Int) -> [UInt8]? {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
        defer { buffer.deallocate() }
        var cursor = EncodeCursor(buffer)
        guard cache.copy(slot, to: &cursor) else { return nil }
        return Array(UnsafeRawBufferPointer(rebasing: buffer[0..<cursor.count]))
    }

    func testEachSlotGivesBackWhatWasLastKeptInItWhateverTheOrderAndLengths() {
        var generator = SystemRandomNumberGenerator()
        let cache = SectionCache()
        var expected: [[UInt8]?] = Array(repeating: nil, count: 6)
        for slot in 0..<6 { XCTAssertNil(copied(cache, slot), "nothing kept yet") }
        for round in 0..<2_000 {
            let slot = Int.random(in: 0..<6, using: &generator)
            // Mostly the same length again (a part that did not change size), sometimes any
            // length up to the slot's capacity, the empty and the full one included.
            let length: Int
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: length = Int.random(in: 0...capacities[slot], using: &generator)
            case 1: length = [0, capacities[slot]].randomElement(using: &generator)!
            default: length = expected[slot]?.count ?? Int.random(in: 0...capacities[slot], using: &generator)
            }
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            bytes.withUnsafeBytes { cache.keep(slot, $0) }
            expected[slot] = bytes
            for s in 0..<6 { XCTAssertEqual(copied(cache, s), expected[s], "round \(round), slot \(s)") }
        }
        cache.clear()
        for slot in 0..<6 { XCTAssertNil(copied(cache, slot), "cleared") }
        [UInt8](repeating: 7, count: 9).withUnsafeBytes { cache.keep(3, $0) }
        XCTAssertEqual(copied(cache, 3), [UInt8](repeating: 7, count: 9))
        XCTAssertNil(copied(cache, 2))
    }
}
