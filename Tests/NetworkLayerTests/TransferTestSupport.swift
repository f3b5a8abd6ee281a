import Foundation
import NetworkLayer

/// Progress reports as a test's closure received them.
final class ProgressLog: Sendable {
    private let reports = Locked<[TransferProgress]>([])

    /// The closure to hand to an upload or download.
    var handler: @Sendable (TransferProgress) -> Void {
        { [reports] progress in reports.withLock { $0.append(progress) } }
    }

    var all: [TransferProgress] { reports.withLock { $0 } }

    /// Whether every report moved forward from the one before.
    var isMonotonic: Bool {
        let all = all
        return zip(all, all.dropFirst()).allSatisfy { $0.completedBytes <= $1.completedBytes }
    }
}

/// A fresh directory under the temporary directory, removed when the test is done with it.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("NetworkLayerTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside the directory.
    func file(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    /// The names of the files in the directory, hidden ones (partial downloads) included.
    var contents: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Bytes where byte `i` is `i % 251`, so that any misplaced, lost or repeated chunk shows.
enum Pattern {
    static func data(count: Int, from offset: Int = 0) -> Data {
        let period = Data((0..<251).map { UInt8(($0 + offset) % 251) })
        var data = Data(capacity: count + 251)
        while data.count < count { data.append(period) }
        return data.prefix(count)
    }
}
