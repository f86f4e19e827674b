// The test frameworks' forms of a memory budget: a failure recorded where the test calls it.

#if canImport(XCTest)
import XCTest

/// Runs `body`, and fails the XCTest test when it passes `limits` (``MemoryBudget/check(_:_:)``).
/// Returns what `body` returned.
@discardableResult
public func XCTAssertMemory<T>(_ limits: MemoryLimits, file: StaticString = #filePath, line: UInt = #line,
                               _ body: () throws -> T) rethrows -> T {
    let (result, use) = try MemoryBudget.measure(body)
    if let failure = MemoryBudget.check(use, limits) { XCTFail(failure, file: file, line: line) }
    return result
}
#endif

#if canImport(Testing)
import Testing

/// Runs `body`, and records an issue in the Swift Testing test when it passes `limits`.
/// Returns what `body` returned.
@discardableResult
public func expectMemory<T>(_ limits: MemoryLimits, sourceLocation: SourceLocation = #_sourceLocation,
                            _ body: () throws -> T) rethrows -> T {
    let (result, use) = try MemoryBudget.measure(body)
    if let failure = MemoryBudget.check(use, limits) { Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation) }
    return result
}
#endif
