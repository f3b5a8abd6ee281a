import Foundation
import NetworkLayer

/// Progress reports as a test's closure received them.
public final class ProgressLog: Sendable {
    private let reports = Locked<[TransferProgress]>([])

    /// An empty log.
    public init() {}

    /// The closure to hand to an upload or download.
    public var handler: @Sendable (TransferProgress) -> Void {
        { [reports] progress in reports.withLock { $0.append(progress) } }
    }

    /// Every report so far, in the order received.
    public var all: [TransferProgress] { reports.withLock { $0 } }

    /// Whether every report moved forward from the one before.
    public var isMonotonic: Bool {
        let all = all
        return zip(all, all.dropFirst()).allSatisfy { $0.completedBytes <= $1.completedBytes }
    }
}

/// A fresh directory under the temporary directory, removed when the test is done with it.
public final class TemporaryDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// Creates the directory.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("NetworkLayerTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside the directory.
    public func file(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    /// The names of the files in the directory, hidden ones (partial downloads) included.
    public var contents: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    }

    /// Creates a sparse file of `size` zero bytes: instant, and no disk used.
    public func sparseFile(_ name: String, size: UInt64) throws -> URL {
        let url = file(name)
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: size)
        try handle.close()
        return url
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Bytes where byte `i` is `i % 251`, as the file server's `/pattern` sends them, so that any
/// misplaced, lost or repeated chunk shows.
public enum Pattern {
    /// `count` bytes of the pattern, starting at position `offset`.
    public static func data(count: Int, from offset: Int = 0) -> Data {
        let period = Data((0..<251).map { UInt8(($0 + offset) % 251) })
        var data = Data(capacity: count + 251)
        while data.count < count { data.append(period) }
        return data.prefix(count)
    }

    /// Whether `file` holds the pattern from its first byte to its last, read 1 MiB at a time.
    public static func matches(_ file: URL) throws -> Bool {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        let period = data(count: 251 * 4096 + 251)
        var offset = 0
        while let chunk = try handle.read(upToCount: 251 * 4096), !chunk.isEmpty {
            let start = offset % 251
            guard chunk == period[start..<(start + chunk.count)] else { return false }
            offset += chunk.count
        }
        return true
    }
}

/// The process's peak resident memory, from Linux's `/proc/self/status`.
public enum PeakMemory {
    /// Whether the peak can be read and reset here (Linux).
    public static let isAvailable = FileManager.default.isWritableFile(atPath: "/proc/self/clear_refs")

    /// Runs `body` and returns how far the process's peak resident memory rose above its resident
    /// memory at the start, in bytes. The peak is reset first (`/proc/self/clear_refs`), so an
    /// earlier, higher peak cannot hide what `body` uses.
    public static func rise<T>(during body: () async throws -> T) async throws -> (T, Int64) {
        try Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
        let start = try value(of: "VmRSS")
        let result = try await body()
        return (result, try value(of: "VmHWM") - start)
    }

    private static func value(of field: String) throws -> Int64 {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            if let kilobytes = line.split(whereSeparator: \.isWhitespace).dropFirst().first.flatMap({ Int64($0) }) {
                return kilobytes * 1024
            }
        }
        throw CocoaError(.fileReadCorruptFile)
    }
}
