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
// Arguments: `ours` or `raw`; `download` (to a file: `download(for:to:)`, raw `download(for:)`),
// `data` (into memory: `send(_:as: Data.self)`, raw `data(for:)`), `upload` (from a sparse file:
// `upload(for:as:)` with `.uploadFile`, raw `upload(for:fromFile:)`) or `upload-stream` (the same
// for ours; raw `data(for:)` with the file as its `httpBodyStream`, sent chunked); the body's size in bytes.
// A 1 MB warm-up request opens the connection before the peak is reset.

if LoopbackServer.isRequested { LoopbackServer.serve() }

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 3, ["ours", "raw"].contains(arguments[0]), ["download", "data", "upload", "upload-stream"].contains(arguments[1]),
    let size = Int(arguments[2]), size > 0,
    let server = ProcessInfo.processInfo.environment["NETWORKLAYER_BENCHMARK_SERVER_URL"]
else {
    FileHandle.standardError.write(
        Data("usage: NETWORKLAYER_BENCHMARK_SERVER_URL=… transfer-memory ours|raw download|data|upload|upload-stream <bytes>\n".utf8))
    exit(64)
}
let (side, kind) = (arguments[0], arguments[1])
let client = NetworkClient()
let session = URLSession(configuration: URLSessionTransport.defaultConfiguration())
let destination = FileManager.default.temporaryDirectory.appendingPathComponent("networklayer-transfer-memory-\(getpid()).bin")

/// `POST /upload` of `file`.
struct Upload: Endpoint {
    let base: String
    let file: URL
    var path: String { "/upload" }
    var method: HTTPMethod { .post }
    var task: HTTPTask { .uploadFile(file) }
}

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
    case ("ours", "upload"), ("ours", "upload-stream"):
        let file = try sparseFile(count)
        defer { try? FileManager.default.removeItem(at: file) }
        return try await client.upload(for: Upload(base: server, file: file), as: [String: Int].self)["received"] ?? 0
    case ("raw", "upload"):
        let file = try sparseFile(count)
        defer { try? FileManager.default.removeItem(at: file) }
        var request = URLRequest(url: URL(string: "\(server)/upload")!)
        request.httpMethod = "POST"
        let (data, _) = try await session.upload(for: request, fromFile: file)
        return try JSONDecoder().decode([String: Int].self, from: data)["received"] ?? 0
    case ("raw", "upload-stream"):
        let file = try sparseFile(count)
        defer { try? FileManager.default.removeItem(at: file) }
        var request = URLRequest(url: URL(string: "\(server)/upload")!)
        request.httpMethod = "POST"
        request.httpBodyStream = InputStream(url: file)
        let (data, _) = try await session.data(for: request)
        return try JSONDecoder().decode([String: Int].self, from: data)["received"] ?? 0
    case ("ours", _):
        return try await client.send(Bytes(base: server, count: count), as: Data.self).count
    default:
        return try await session.data(for: URLRequest(url: url)).0.count
    }
}

/// A file of `count` zero bytes that takes no disk space.
func sparseFile(_ count: Int) throws -> URL {
    let url = destination.appendingPathExtension("upload-\(count)")
    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    try handle.truncate(atOffset: UInt64(count))
    return url
}

let finished = DispatchSemaphore(value: 0)
Task.detached {
    do {
        _ = try await transfer(1_000_000)
        guard ProcessStats.resetPeakResident(), let before = ProcessStats.residentBytes() else {
            FileHandle.standardError.write(Data("cannot reset the peak resident memory (/proc/self/clear_refs)\n".utf8))
            exit(1)
        }
        let start = DispatchTime.now().uptimeNanoseconds
        let received = try await transfer(size)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard received == size, let peak = ProcessStats.peakResidentBytes() else {
            FileHandle.standardError.write(Data("received \(received) bytes, expected \(size)\n".utf8))
            exit(1)
        }
        let mebibyte = Double(1 << 20)
        let rise = Double(peak - before) / mebibyte
        print(String(format: "%@ %@: rise %.1f MiB, peak %.1f MiB, %.2f s", side, kind, rise, Double(peak) / mebibyte, seconds))
    } catch {
        FileHandle.standardError.write(Data("\(side) \(kind) failed: \(error)\n".utf8))
        exit(1)
    }
    finished.signal()
}
finished.wait()
