import BenchmarkSupport
import Dispatch
import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// Runs one large transfer, ours or raw, and prints how far it raised the process's peak resident
// memory. One transfer per process: the C allocator keeps what a transfer made it reserve, so a
// second transfer in the same process would be measured on a heap the first one grew. Run it
// through Benchmarks/scripts/transfer-memory.py, which alternates the sides over several rounds
// against one server; or start the server yourself (see request-profile's comment) and run
//
//   NETWORKLAYER_BENCHMARK_SERVER_URL=http://127.0.0.1:<port> \
//       Benchmarks/.build/release/transfer-memory ours download 1073741824
//
// Arguments: `ours` or `raw`; `download` (to a file: `download(for:to:)`, raw `download(for:)`) or
// `data` (into memory: `send(_:as: Data.self)`, raw `data(for:)`); the body's size in bytes.
// A 1 MB warm-up request opens the connection before the peak is reset.

if LoopbackServer.isRequested { LoopbackServer.serve() }

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 3, ["ours", "raw"].contains(arguments[0]), ["download", "data"].contains(arguments[1]),
    let size = Int(arguments[2]), size > 0,
    let server = ProcessInfo.processInfo.environment["NETWORKLAYER_BENCHMARK_SERVER_URL"]
else {
    FileHandle.standardError.write(
        Data("usage: NETWORKLAYER_BENCHMARK_SERVER_URL=… transfer-memory ours|raw download|data <bytes>\n".utf8))
    exit(64)
}
let (side, kind) = (arguments[0], arguments[1])
let client = NetworkClient()
let session = URLSession(configuration: NetworkClient.defaultConfiguration())
let destination = FileManager.default.temporaryDirectory.appendingPathComponent("networklayer-transfer-memory-\(getpid()).bin")

/// `GET /bytes/<count>`.
struct Bytes: Endpoint {
    let base: String
    let count: Int
    var path: String { "/bytes/\(count)" }
}

/// One transfer of `count` bytes; returns the bytes received.
func transfer(_ count: Int) async throws -> Int {
    let url = URL(string: "\(server)/bytes/\(count)")!
    switch (side, kind) {
    case ("ours", "download"):
        let file = try await client.download(for: Bytes(base: server, count: count), to: destination)
        try? FileManager.default.removeItem(at: file.fileURL)
        return Int(file.byteCount)
    case ("raw", "download"):
        let (file, _) = try await session.download(for: URLRequest(url: url))
        defer { try? FileManager.default.removeItem(at: file) }
        return try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0
    case ("ours", _):
        return try await client.send(Bytes(base: server, count: count), as: Data.self).count
    default:
        return try await session.data(for: URLRequest(url: url)).0.count
    }
}

let finished = DispatchSemaphore(value: 0)
Task.detached {
    do {
        _ = try await transfer(1_000_000)
        guard ProcessStats.resetPeakResident(), let before = ProcessStats.residentBytes() else {
            FileHandle.standardError.write(Data("cannot reset the peak resident memory (/proc/self/clear_refs)\n".utf8))
            exit(1)
        }
        let received = try await transfer(size)
        guard received == size, let peak = ProcessStats.peakResidentBytes() else {
            FileHandle.standardError.write(Data("received \(received) bytes, expected \(size)\n".utf8))
            exit(1)
        }
        let mebibyte = Double(1 << 20)
        print(String(format: "%@ %@: rise %.1f MiB, peak %.1f MiB", side, kind, Double(peak - before) / mebibyte, Double(peak) / mebibyte))
    } catch {
        FileHandle.standardError.write(Data("\(side) \(kind) failed: \(error)\n".utf8))
        exit(1)
    }
    finished.signal()
}
finished.wait()
