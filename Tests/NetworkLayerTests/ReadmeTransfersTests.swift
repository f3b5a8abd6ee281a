import Foundation
import NetworkLayer
import NetworkLayerTesting
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The README's transfer samples, compiled and run against stubs so they cannot rot.
enum ReadmeTransfers {
    enum MediaAPI: Endpoint {
        case poster(movie: Int, file: URL)
        case submission(MultipartFormData)
        case trailer(movie: Int)

        var base: String { "https://api.example.com" }
        var path: String {
            switch self {
            case .poster(let movie, _): "/movies/\(movie)/poster"
            case .submission: "/submissions"
            case .trailer(let movie): "/movies/\(movie)/trailer"
            }
        }
        var method: HTTPMethod {
            switch self {
            case .poster: .put
            case .submission: .post
            case .trailer: .get
            }
        }
        var task: HTTPTask {
            switch self {
            case .poster(_, let file): .uploadFile(file, contentType: "image/jpeg")
            case .submission(let form): .uploadMultipart(form)
            case .trailer: .request
            }
        }
    }

    enum LogAPI: Endpoint {
        case tail, export
        var base: String { "https://logs.example.com" }
        var path: String { self == .tail ? "/tail" : "/export" }
    }

    enum FeedAPI: Endpoint {
        case updates
        var base: String { "https://api.example.com" }
        var path: String { "/feed" }
        var headers: HTTPHeaders { ["Accept": "text/event-stream"] }
    }

    struct Receipt: Decodable { let id: Int }
    struct LogEvent: Decodable { let level: String }
}

@Suite("README samples: transfers")
struct ReadmeTransfersTests {
    typealias MediaAPI = ReadmeTransfers.MediaAPI

    @Test("Uploads: a file and a form with a file part, with progress")
    func uploads() async throws {
        let stubs = StubSession()
        stubs.register(.post, "/submissions", .json(#"{"id": 1}"#))
        stubs.register(.put, "/movies/7/poster", .status(204))
        let client = NetworkClient(session: stubs.session)
        let directory = try TemporaryDirectory()
        let trailerURL = directory.file("trailer.mp4")
        try Data("trailer".utf8).write(to: trailerURL)

        var form = MultipartFormData()
        form.append("Heat", name: "title")
        form.append(Data(#"{"year":1995}"#.utf8), name: "meta", contentType: "application/json")
        form.append(fileAt: trailerURL, name: "trailer", filename: "heat – trailer.mp4", contentType: "video/mp4")
        let log = ProgressLog()
        let receipt: ReadmeTransfers.Receipt = try await client.upload(for: MediaAPI.submission(form), progress: log.handler)
        #expect(receipt.id == 1)
        #expect(log.all.last?.fractionCompleted == 1)

        _ = try await client.send(MediaAPI.poster(movie: 7, file: trailerURL), as: Empty.self)
        #expect(stubs.requests(.put, "/movies/7/poster").first?.headers["Content-Type"] == "image/jpeg")
    }

    @Test("Downloads: to a file, with progress")
    func download() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/movies/7/trailer", StubResponse(headers: ["ETag": "v1"], body: Data("bytes".utf8)))
        let client = NetworkClient(session: stubs.session)
        let directory = try TemporaryDirectory()
        let trailerURL = directory.file("trailer.mp4")
        let file = try await client.download(for: MediaAPI.trailer(movie: 7), to: trailerURL) { progress in
            _ = (progress.completedBytes, progress.expectedBytes ?? -1)
        }
        #expect(file.fileURL == trailerURL)
        #expect(file.byteCount == 5)
        #expect(file.response.headers["ETag"] == "v1")
    }

    @Test("Streaming: lines, NDJSON and Server-Sent Events")
    func streaming() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/tail", .chunked([Data("started\nrun".utf8), Data("ning\n".utf8)]))
        stubs.register(.get, "/export", .chunked([Data(#"{"level":"info"}"#.utf8), Data("\n{\"level\":\"warn\"}\n".utf8)]))
        stubs.register(.get, "/feed", .chunked([Data("data: he".utf8), Data("llo\n\n".utf8)]))
        let client = NetworkClient(session: stubs.session)

        var lines: [String] = []
        let stream = try await client.stream(for: ReadmeTransfers.LogAPI.tail)
        for try await line in stream.lines { lines.append(line) }
        #expect(lines == ["started", "running"])

        var levels: [String] = []
        for try await event in try await client.stream(for: ReadmeTransfers.LogAPI.export).lines(as: ReadmeTransfers.LogEvent.self) {
            levels.append(event.level)
        }
        #expect(levels == ["info", "warn"])

        var events: [ServerSentEvent] = []
        for try await event in try await client.stream(for: ReadmeTransfers.FeedAPI.updates).events { events.append(event) }
        #expect(events == [ServerSentEvent(data: "hello")])
        #expect(stubs.requests(.get, "/feed").first?.headers["Accept"] == "text/event-stream")
    }
}
