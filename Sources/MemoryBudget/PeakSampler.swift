// The closure's peak without resetting the process's: a thread reads the resident size
// (/proc/self/statm, kept open: a pread of a few dozen bytes, no page-table walk) every
// sampleIntervalNs while the closure runs, and keeps the highest reading.

#if canImport(Glibc)
import Glibc
#endif
import Synchronization

final class PeakSampler {
    private let stopRequested = Atomic<Bool>(false)
    /// Set by the thread once it took its first reading: the figures read before the closure
    /// then include the thread's stack, which is not the closure's memory.
    private let ready = Atomic<Bool>(false)
    private let intervalNs: Int
    private let statm: Int32
    private let pageBytes: UInt64
    /// Allocated here: the thread allocates nothing, so it moves no figure it reads.
    private let buffer: UnsafeMutableRawPointer
    private static let bufferBytes = 128
    /// Written by the thread alone, read once it was joined (pthread_join orders the two).
    private var highestPages: UInt64 = 0
    private var samples = 0
    private var thread = pthread_t()
    private var running = false

    /// Starts the thread and returns once it took its first reading; without /proc/self/statm
    /// or a thread, ``stop()`` returns no reading.
    init(intervalNs: Int) {
        self.intervalNs = min(max(intervalNs, 1), 999_999_999)
        statm = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        pageBytes = UInt64(max(sysconf(Int32(_SC_PAGESIZE)), 1))
        buffer = UnsafeMutableRawPointer.allocate(byteCount: Self.bufferBytes, alignment: 8)
        guard statm >= 0 else { return }
        var handle = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let created = pthread_create(&handle, nil, { context in
            Unmanaged<PeakSampler>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        guard created == 0 else {
            Unmanaged<PeakSampler>.fromOpaque(context).release()
            return
        }
        thread = handle
        running = true
        while !ready.load(ordering: .acquiring) { sched_yield() }
    }

    deinit {
        if statm >= 0 { close(statm) }
        buffer.deallocate()
    }

    /// Stops the thread (the first call) and returns the highest resident size it read,
    /// bytes, and how many readings it took.
    @discardableResult
    func stop() -> (highest: UInt64, samples: Int) {
        if running {
            stopRequested.store(true, ordering: .releasing)
            pthread_join(thread, nil)
            running = false
        }
        let (bytes, overflow) = highestPages.multipliedReportingOverflow(by: pageBytes)
        return (overflow ? .max : bytes, samples)
    }

    private func run() {
        var pause = timespec(tv_sec: 0, tv_nsec: intervalNs)
        sample()
        ready.store(true, ordering: .releasing)
        while !stopRequested.load(ordering: .acquiring) {
            nanosleep(&pause, nil)
            sample()
        }
    }

    /// Reads statm ("size resident shared text lib data dt", pages) and keeps its second
    /// number when it is the highest yet.
    private func sample() {
        let n = pread(statm, buffer, Self.bufferBytes, 0)
        guard n > 0 else { return }
        let bytes = UnsafeRawBufferPointer(start: buffer, count: n)
        var i = 0
        while i < n && bytes[i] != 0x20 { i += 1 }
        i += 1
        var pages: UInt64 = 0, digits = 0
        while i < n, bytes[i] >= 0x30, bytes[i] <= 0x39 {
            let (times, o1) = pages.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(UInt64(bytes[i] - 0x30))
            pages = o1 || o2 ? .max : sum
            i += 1; digits += 1
        }
        guard digits > 0 else { return }
        if pages > highestPages { highestPages = pages }
        samples += 1
    }
}
