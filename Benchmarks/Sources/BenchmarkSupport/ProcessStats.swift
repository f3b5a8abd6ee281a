import Foundation

/// What the loopback benchmarks read about their own process beyond package-benchmark's metrics.
public enum ProcessStats {
    /// CPU time (user and system, every thread) this process has used, in nanoseconds.
    public static func cpuTime() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return time.tv_sec * 1_000_000_000 + time.tv_nsec
    }

    /// The resident set size now, in bytes (`VmRSS`), or `nil` where `/proc` has none.
    public static func residentBytes() -> Int? {
        statusField("VmRSS:")
    }

    /// The highest resident set size since start or since ``resetPeakResident()``, in bytes (`VmHWM`).
    public static func peakResidentBytes() -> Int? {
        statusField("VmHWM:")
    }

    /// Starts a new peak: Linux resets `VmHWM` to the current resident size when `5` is written
    /// to `/proc/self/clear_refs`. Returns whether it could.
    @discardableResult
    public static func resetPeakResident() -> Bool {
        let file = open("/proc/self/clear_refs", O_WRONLY)
        guard file >= 0 else { return false }
        defer { close(file) }
        return write(file, "5", 1) == 1
    }

    /// The file descriptors this process has open now (sockets included), or `nil` where `/proc` has none.
    public static func openFileDescriptors() -> Int? {
        // Listing the directory opens one descriptor of its own.
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")).map { $0.count - 1 }
    }

    /// The threads of this process now, or `nil` where `/proc` has none.
    public static func threads() -> Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task"))?.count
    }

    private static func statusField(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(name) {
            let kilobytes = line.dropFirst(name.count).split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) }
            return kilobytes.map { $0 * 1024 }
        }
        return nil
    }
}
