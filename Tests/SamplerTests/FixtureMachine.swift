import Foundation
import TestSupport

/// A sampler fixture case (`Tests/Fixtures/sampler-<case>/<n>/{proc,sys}`) as a live tree.
final class FixtureMachine {
    let name: String
    let tree: LiveTree
    var root: URL { tree.url }
    var procRoot: String { tree.url.appendingPathComponent("proc").path }
    var sysRoot: String { tree.url.appendingPathComponent("sys").path }

    init(_ name: String) throws {
        self.name = name
        tree = try LiveTree()
    }

    /// Makes the live root look like sample `n` of the fixture.
    func advance(to n: Int) throws { try tree.mirror("\(name)/\(n)") }
}
