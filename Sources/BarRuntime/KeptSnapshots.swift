import CBarSys

/// The sampler's two snapshot files, kept open between updates.
///
/// The sampler publishes by exchange (docs/snapshot-format.md): two files take turns being
/// `snapshot`. Once a read by path meets again a file the bar already holds, the bar holds
/// both and reads each new snapshot with one `pread`, where open + fstat + read + close
/// took four calls. Which of the two `snapshot` names now follows from the exchanges since
/// the last read: after an odd count the other file, after an even one the same. An
/// exchange is an IN_MOVED_TO of `snapshot` followed by one of `.snapshot.tmp` (the kernel
/// reports both names moved); an IN_MOVED_TO of `snapshot` alone is a file renamed into
/// place — a sampler that makes new files, or one just restarted — after which the count
/// says nothing until a read by path. (The watch asks for IN_MOVED_FROM too, so that a
/// rename's IN_MOVED_TO and the next exchange's are never merged into one by inotify.)
/// What a kept file holds is believed only when it decodes and its sequence is newer than
/// the snapshot shown by at most the exchanges counted (the sampler numbers each snapshot
/// one more): a file a restarted sampler left behind holds an older run's, larger, numbers.
/// Anything else — a sampler that renames new files into place, a restarted one, lost
/// events, a read racing a rewrite — sends the bar back to the path, as before.
struct KeptSnapshots {
    private var descriptors: (Int32, Int32) = (-1, -1)
    private var identities = (FileIdentity(device: 0, inode: 0), FileIdentity(device: 0, inode: 0))
    /// Which kept file was read last (0 or 1), -1 none.
    private var lastRead = -1
    /// A read by path met a kept file again: the writer exchanges the two.
    private var confirmed = false
    /// Exchanges since the last read.
    private var publications = 0
    /// An IN_MOVED_TO of `snapshot` not yet followed by one of `.snapshot.tmp`.
    private var unpaired = false
    /// The sequence of the snapshot shown last.
    private(set) var lastSequence: UInt64? = nil

    /// An IN_MOVED_TO of `snapshot`.
    mutating func noteSnapshotMoved() {
        if unpaired { confirmed = false }   // the one before was a rename, not an exchange
        unpaired = true
    }

    /// An IN_MOVED_TO of `.snapshot.tmp`: with the one of `snapshot` before it, an exchange.
    mutating func noteSpareMoved() {
        guard unpaired else { return }
        unpaired = false
        publications = min(publications + 1, 1 << 30)
    }

    /// The end of a read of events: a `snapshot` moved without its pair was renamed into
    /// place (or the pair was split between two reads: the read by path then finds the file).
    mutating func endOfEvents() {
        if unpaired { confirmed = false }
        unpaired = false
    }

    /// Which file is `snapshot` cannot be told until a read by path: events were lost, or
    /// the candidate did not decode or was not the next snapshot.
    mutating func lostTrack() { confirmed = false }

    /// The descriptor of the kept file that holds the newest snapshot, or -1 when the bar
    /// must read by path.
    var candidate: Int32 {
        guard confirmed, lastRead >= 0, publications > 0 else { return -1 }
        return (lastRead + publications) & 1 == 0 ? descriptors.0 : descriptors.1
    }

    /// The candidate's snapshot (sequence `sequence`) was shown.
    mutating func shownCandidate(sequence: UInt64) {
        lastRead = (lastRead + publications) & 1
        publications = 0
        lastSequence = sequence
    }

    /// Whether the candidate's snapshot, numbered `sequence`, may be shown: newer than the
    /// last shown, by no more than the publications since.
    func isNext(_ sequence: UInt64) -> Bool {
        guard let last = lastSequence else { return false }
        return sequence > last && sequence - last <= UInt64(publications)
    }

    /// A snapshot read by path from `fd` (file `identity`) was shown: keeps the file open,
    /// or closes `fd` when the file is already kept.
    mutating func shownFromPath(_ fd: Int32, _ identity: FileIdentity, sequence: UInt64) {
        publications = 0
        lastSequence = sequence
        if descriptors.0 >= 0 && identity == identities.0 {
            _ = close(fd)
            lastRead = 0
            confirmed = descriptors.1 >= 0
        } else if descriptors.1 >= 0 && identity == identities.1 {
            _ = close(fd)
            lastRead = 1
            confirmed = descriptors.0 >= 0
        } else if descriptors.0 < 0 || descriptors.1 < 0 {
            if descriptors.0 < 0 { descriptors.0 = fd; identities.0 = identity; lastRead = 0 }
            else { descriptors.1 = fd; identities.1 = identity; lastRead = 1 }
            confirmed = false
        } else {
            // A third file: the writer makes new ones (create + rename), or was restarted.
            _ = close(descriptors.1)
            descriptors.1 = -1
            _ = close(descriptors.0)
            descriptors.0 = fd
            identities.0 = identity
            lastRead = 0
            confirmed = false
        }
    }

    /// Closes the kept files (the runtime directory went away).
    mutating func forget() {
        if descriptors.0 >= 0 { _ = close(descriptors.0) }
        if descriptors.1 >= 0 { _ = close(descriptors.1) }
        descriptors = (-1, -1)
        lastRead = -1
        confirmed = false
        publications = 0
    }
}
