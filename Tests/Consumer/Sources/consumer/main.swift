import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every verb of NetworkLayer against the local file server whose URL is the first argument, over
/// `.asyncHTTPClient()` when built with the trait `AHC`, else over the default transport; prints one
/// line per check and ends with "count: N checks", or exits 1 at the first that fails.

struct FileServerAPI: Endpoint {
    var base: String
    var path: String
    var method: HTTPMethod = .get
    var task: HTTPTask = .request
    var options: CallOptions { CallOptions(timeout: 30) }
}

struct Indexed: Decodable, Equatable { let index: Int }
struct Sink: Decodable { let bytes: Int; let pattern: Bool }
struct Parsed: Decodable { let complete: Bool; let parts: [Part] }
struct Part: Decodable { let name: String; let bytes: Int }

/// Counts the requests it sees and gives each a header, as an application's interceptor would.
struct Counting: Interceptor {
    let seen = Counter()
    func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        await seen.increment()
        var request = request
        request.setValue("consumer", forHTTPHeaderField: "X-Consumer")
        return request
    }
}

actor Counter {
    private(set) var count = 0
    func increment() { count += 1 }
}

@main
struct Consumer {
    static func main() async {
        guard CommandLine.arguments.count == 2 else {
            print("usage: consumer <file server URL>")
            exit(2)
        }
        let base = CommandLine.arguments[1]
        #if AHC
            let transport = "AsyncHTTPClient"
            let counting = Counting()
            let client = NetworkClient(
                transport: .asyncHTTPClient(), configuration: ClientConfiguration(interceptors: [counting, RetryPolicy()]))
        #else
            let transport = "URLSession"
            let counting = Counting()
            let client = NetworkClient(configuration: ClientConfiguration(interceptors: [counting, RetryPolicy()]))
        #endif
        var checks = 0
        func check(_ name: String, _ body: () async throws -> Bool) async {
            do {
                guard try await body() else {
                    print("consumer (\(transport)): \(name): wrong result")
                    exit(1)
                }
                checks += 1
                print("consumer (\(transport)): \(name): ok")
            } catch {
                print("consumer (\(transport)): \(name): \(error)")
                exit(1)
            }
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("consumer-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        await check("fetch") {
            let result = await client.fetch(
                FileServerAPI(base: base, path: "/json", task: .requestParameters(urlParameters: ["index": 7])), as: Indexed.self)
            return (try? result.get()) == Indexed(index: 7)
        }
        await check("send") {
            let value: Indexed = try await client.send(
                FileServerAPI(base: base, path: "/json", task: .requestParameters(urlParameters: ["index": 8])))
            return value == Indexed(index: 8)
        }
        await check("download") {
            let file = try await client.download(
                for: FileServerAPI(base: base, path: "/pattern", task: .requestParameters(urlParameters: ["size": 300_000])),
                to: directory.appendingPathComponent("pattern.bin"))
            let data = try Data(contentsOf: file.fileURL)
            return data.count == 300_000 && data.enumerated().allSatisfy { $0.element == UInt8($0.offset % 251) }
        }
        await check("stream lines") {
            var lines: [Indexed] = []
            let stream = try await client.stream(
                for: FileServerAPI(base: base, path: "/lines", task: .requestParameters(urlParameters: ["count": 5])))
            for try await line in stream.lines(as: Indexed.self) { lines.append(line) }
            return lines.map(\.index) == [0, 1, 2, 3, 4]
        }
        await check("stream events") {
            var events: [ServerSentEvent] = []
            let stream = try await client.stream(
                for: FileServerAPI(base: base, path: "/events", task: .requestParameters(urlParameters: ["interval": 0.01])))
            for try await event in stream.events { events.append(event) }
            return events.first?.data == "first" && events.last?.event == "done"
        }
        await check("upload a file") {
            let file = directory.appendingPathComponent("upload.bin")
            try Data((0..<200_000).map { UInt8($0 % 251) }).write(to: file)
            let sink: Sink = try await client.upload(for: FileServerAPI(base: base, path: "/sink", method: .put, task: .uploadFile(file)))
            return sink.bytes == 200_000 && sink.pattern
        }
        await check("upload a form") {
            var form = MultipartFormData()
            form.append("Heat", name: "title")
            form.append(Data(repeating: 0x61, count: 10_000), name: "blob", filename: "blob.bin")
            let parsed: Parsed = try await client.upload(
                for: FileServerAPI(base: base, path: "/multipart", method: .post, task: .uploadMultipart(form)))
            return parsed.complete && parsed.parts.map(\.name) == ["title", "blob"] && parsed.parts.last?.bytes == 10_000
        }
        await check("interceptors") { await counting.seen.count == 7 }
        await check("errors") {
            let result = await client.fetch(
                FileServerAPI(base: base, path: "/status/404", task: .requestParameters(urlParameters: ["size": 3])), as: Indexed.self)
            guard case .failure(let error) = result else { return false }
            return error.statusCode == 404 && error.response?.text == "xxx"
        }
        print("count: \(checks) checks")
    }
}
