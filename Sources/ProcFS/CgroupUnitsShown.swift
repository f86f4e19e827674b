import SnapshotCodec

// CgroupUnitsReader's listing of the tree, its choice of the units shown and their slower
// figures.
extension CgroupUnitsReader {
    /// The files a shown unit keeps open, in ``Shown/files``' order.
    static let shownFiles: [StaticString] = ["/cpu.stat", "/memory.current", "/memory.stat", "/io.stat", "/pids.current",
                                             "/cpu.pressure", "/memory.pressure", "/io.pressure"]

    /// Lists the tree again: the units (scopes and services; a user's manager,
    /// `user@1000.service`, is a container of units) and the folders that hold them. A
    /// unit listed before keeps what was read of it; a new one is named; the containers'
    /// files are kept open. Allocates: run when the tree changed.
    func list(_ root: String, _ buffer: ReadBuffer) {
        listAgain = false
        var found = CgroupUnits.list(root: root).map { Node(path: $0.path, parent: $0.parent, isUnit: $0.isUnit) }
        if found.count == nodes.count, (0..<found.count).allSatisfy({ found[$0].path == nodes[$0].path && found[$0].isUnit == nodes[$0].isUnit }) {
            return
        }
        var before: [[UInt8]: Int] = [:]
        for i in 0..<nodes.count { before[nodes[i].path] = i }
        var containers = 0
        for i in 0..<found.count {
            if let j = before[found[i].path], nodes[j].isUnit == found[i].isUnit {
                let parent = found[i].parent
                found[i] = Node(carrying: nodes[j], parent: parent)
                continue
            }
            if found[i].isUnit {
                name(&found[i])
            } else if containers < Self.maximumContainers {
                let folder = found[i].path.isEmpty ? root : root + "/" + pathString(bytes: found[i].path)
                found[i].cpuFile = ProcFile(folder + "/cpu.stat")
                found[i].memoryFile = ProcFile(folder + "/memory.current")
                containers += 1
            }
        }
        nodes = found
        shown.removeAll(keepingCapacity: true)
    }

    /// Names a unit: UnitNaming's name, then the namer's (the rules, the desktop files).
    func name(_ node: inout Node) {
        var name: [UInt8] = [], bare: [UInt8] = []
        let (kind, id) = CgroupUnits.lastComponent(node.path).withUnsafeBytes { UnitNaming.describe($0, name: &name, bare: &bare) }
        namer?.name(kind: kind, bare: bare, appID: id, name: &name)
        node.kind = kind
        node.name = name
    }

    /// Names every unit anew (the rules changed). Allocates: run when they did.
    func nameUnits() {
        namedGeneration = namer?.generation ?? 0
        for i in 0..<nodes.count where nodes[i].isUnit { name(&nodes[i]) }
    }

    /// Picks the units shown: the busiest by CPU (read this sample, using some), then the
    /// largest by memory, to the part's limit; their kept files follow them.
    func rank() {
        picks.removeAll(keepingCapacity: true)
        for k in 0..<kept.count where picks.count < UnitsPart.part.maximumReadings {
            for i in 0..<nodes.count where nodes[i].isUnit && !picked(i) && (nodes[i].name == kept[k] || ownName(i) == kept[k][...]) {
                picks.append(i)
                break
            }
        }
        let fixed = picks.count
        while picks.count < fixed + Self.busiestShown && picks.count < UnitsPart.part.maximumReadings {
            var best = -1
            for i in 0..<nodes.count where nodes[i].isUnit && nodes[i].cpuSample == sample && nodes[i].cpuPermyriad > 0 && !picked(i) {
                if best < 0 || nodes[i].cpuPermyriad > nodes[best].cpuPermyriad { best = i }
            }
            guard best >= 0 else { break }
            picks.append(best)
        }
        while picks.count < UnitsPart.part.maximumReadings {
            var best = -1
            for i in 0..<nodes.count where nodes[i].isUnit && (nodes[i].memoryBytes ?? 0) > 0 && !picked(i) {
                if best < 0 || nodes[i].memoryBytes! > nodes[best].memoryBytes! { best = i }
            }
            guard best >= 0 else { break }
            picks.append(best)
        }
        // In place: a unit shown before keeps its files (swapped to its new place); only a
        // newcomer opens its own.
        for k in 0..<picks.count {
            if k < shown.count, shown[k].node == picks[k] { continue }
            var j = k + 1
            while j < shown.count && shown[j].node != picks[k] { j += 1 }
            if j < shown.count {
                shown.swapAt(k, j)
            } else {
                let unit = open(picks[k])
                if k < shown.count { shown.append(shown[k]); shown[k] = unit } else { shown.append(unit) }
            }
        }
        if shown.count > picks.count { shown.removeLast(shown.count - picks.count) }
    }

    /// Unit `i`'s own name, the last part of its path.
    func ownName(_ i: Int) -> ArraySlice<UInt8> { CgroupUnits.lastComponent(nodes[i].path) }

    /// Whether node `i` is among ``picks``.
    private func picked(_ i: Int) -> Bool {
        for k in 0..<picks.count where picks[k] == i { return true }
        return false
    }

    /// A newly shown unit's files.
    private func open(_ node: Int) -> Shown {
        var files: [ProcFile] = []
        for name in Self.shownFiles {
            unitFile(node, name)
            files.append(ProcFile(path.string))
        }
        return Shown(node: node, files: files)
    }

    /// memory.stat, io.stat, pids.current and the pressure files of each shown unit, when
    /// newly shown and then every ``slowEverySamples`` samples.
    func readSlowFigures(_ buffer: ReadBuffer, _ now: UInt64) {
        for s in 0..<shown.count where shown[s].slowSample == 0 || sample &- shown[s].slowSample >= Self.slowEverySamples {
            shown[s].slowSample = sample
            if case .success(let b) = shown[s].files[2].read(into: buffer) {
                shown[s].anon = CgroupUnits.keyedValue(b, "anon")
                shown[s].file = CgroupUnits.keyedValue(b, "file")
            }
            if case .success(let b) = shown[s].files[3].read(into: buffer) {
                let (r, w) = CgroupUnits.ioTotals(b)
                let span = now &- shown[s].ioAtNs
                shown[s].readRate = Self.perSecond(r, shown[s].readBytes, span: shown[s].ioAtNs > 0 ? span : 0)
                shown[s].writeRate = Self.perSecond(w, shown[s].writtenBytes, span: shown[s].ioAtNs > 0 ? span : 0)
                (shown[s].readBytes, shown[s].writtenBytes, shown[s].ioAtNs) = (r, w, now)
            }
            if case .success(let b) = shown[s].files[4].read(into: buffer) { shown[s].tasks = parseUnsignedLine(b) }
            var pressure: UInt64?
            for f in 5..<8 {
                if case .success(let b) = shown[s].files[f].read(into: buffer), let v = CgroupUnits.someAverage10(b) { pressure = max(pressure ?? 0, v) }
            }
            shown[s].pressure = pressure
        }
    }

    /// A counter's change a second; nil without two readings (a device added between them
    /// that lowers a sum reads as nil, not as a wrapped rate).
    static func perSecond(_ now: UInt64?, _ then: UInt64?, span: UInt64) -> UInt64? {
        guard let now, let then, span > 0, now >= then else { return nil }
        let (high, low) = (now - then).multipliedFullWidth(by: 1_000_000_000)
        return high < span ? span.dividingFullWidth((high, low)).quotient : .max
    }

    /// Shown unit `s`'s reading: its kind and name, and its figures (CPU only when read this sample).
    func fill(_ r: inout PartReading, _ s: Shown) {
        let node = nodes[s.node]
        let word = node.kind.word
        node.name.withUnsafeBytes { r.reset(source: UnsafeRawBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount), label: $0) }
        CgroupUnits.lastComponent(node.path).withUnsafeBytes { r.setText(UnitsPart.unitName, raw: $0) }
        if node.cpuSample == sample { r[UnitsPart.cpu] = Int64(clamping: node.cpuPermyriad) }
        r[UnitsPart.memory] = node.memoryBytes.map { Int64(clamping: $0) }
        r[UnitsPart.anon] = s.anon.map { Int64(clamping: $0) }
        r[UnitsPart.file] = s.file.map { Int64(clamping: $0) }
        r[UnitsPart.read] = s.readRate.map { Int64(clamping: $0) }
        r[UnitsPart.written] = s.writeRate.map { Int64(clamping: $0) }
        r[UnitsPart.tasks] = s.tasks.map { Int64(clamping: $0) }
        r[UnitsPart.pressure] = s.pressure.map { Int64(clamping: $0) }
    }
}

extension CgroupUnitsReader.Node {
    /// `node` as listed again under `parent`: what was read of it kept.
    init(carrying node: CgroupUnitsReader.Node, parent: Int) {
        self.init(path: node.path, parent: parent, isUnit: node.isUnit)
        kind = node.kind; name = node.name
        cpuUsec = node.cpuUsec; cpuAtNs = node.cpuAtNs; cpuSample = node.cpuSample; cpuPermyriad = node.cpuPermyriad
        memoryBytes = node.memoryBytes; memoryRead = node.memoryRead; memoryAtUnitsRead = node.memoryAtUnitsRead
        cpuFile = node.cpuFile; memoryFile = node.memoryFile
    }
}
