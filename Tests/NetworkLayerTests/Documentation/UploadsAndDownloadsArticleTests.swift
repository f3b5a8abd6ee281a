import Foundation
import NetworkLayer
import NetworkLayerTesting
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ArticleTests {
    /// The snippets of the article UploadsAndDownloads.md, compiled and run against stubs.
    @Suite("Article: Uploads and downloads")
    struct UploadsAndDownloadsArticleTests {
        enum MediaAPI: Endpoint {
            case poster(movie: Int, file: URL)
            case submission(MultipartFormData)

            var base: String { "https://api.example.com" }
            var path: String {
                switch self {
                case .poster(let movie, _): "/movies/\(movie)/poster"
                case .submission: "/submissions"
                }
            }
            var method: HTTPMethod { if case .poster = self { .put } else { .post } }
            var task: HTTPTask {
                switch self {
                case .poster(_, let file): .uploadFile(file, contentType: "image/jpeg")
                case .submission(let form): .uploadMultipart(form)
                }
            }
        }

        enum TrailerAPI: Endpoint {
            case trailer(movie: Int)
            var base: String { "https://api.example.com" }
            var path: String { if case .trailer(let movie) = self { "/movies/\(movie)/trailer" } else { "" } }
        }

        enum ReportAPI: Endpoint {
            case export
            var base: String { "https://api.example.com" }
            var path: String { "/reports/export" }
        }

        struct Receipt: Decodable { let id: Int }
        struct ReportRow: Decodable, Equatable { let day: String; let views: Int }

        @Test("Uploads: a form with a file part, with progress, and a file")
        func uploads() async throws {
            let stubs = StubSession()
            stubs.register(.post, "/submissions", .json(#"{"id": 1}"#))
            stubs.register(.put, "/movies/7/poster", .status(204))
            let client = Article.client(stubs)
            let directory = try TemporaryDirectory()
            let trailerURL = directory.file("trailer.mp4")
            try Data("trailer".utf8).write(to: trailerURL)
            let fractions = LockedArray<Double>()

            var form = MultipartFormData()
            form.append("Heat", name: "title")
            form.append(Data(#"{"year":1995}"#.utf8), name: "meta", contentType: "application/json")
            form.append(fileAt: trailerURL, name: "trailer", filename: "heat – trailer.mp4", contentType: "video/mp4")

            let receipt: Receipt = try await client.upload(for: MediaAPI.submission(form)) { progress in
                fractions.append(progress.fractionCompleted ?? 0)
            }
            _ = try await client.send(MediaAPI.poster(movie: 7, file: trailerURL), as: Empty.self)

            #expect(receipt.id == 1)
            #expect(fractions.elements.last == 1)
            #expect(fractions.elements == fractions.elements.sorted(), "grows only")
            let sent = try #require(stubs.requests(.post, "/submissions").first)
            #expect(sent.headers["Content-Type"]?.hasPrefix("multipart/form-data; boundary=") == true)
            #expect(sent.bodyText?.contains(#"filename="heat – trailer.mp4""#) == true)
            let poster = try #require(stubs.requests(.put, "/movies/7/poster").first)
            #expect(poster.headers["Content-Type"] == "image/jpeg")
        }

        @Test("Downloads: to a file, with progress and the response's headers")
        func download() async throws {
            let stubs = StubSession()
            stubs.register(.get, "/movies/7/trailer", StubResponse(headers: ["ETag": "v1"], body: Data("bytes".utf8)))
            let client = Article.client(stubs)
            let trailerURL = try TemporaryDirectory().file("trailer.mp4")
            let log = ProgressLog()

            let file = try await client.download(for: TrailerAPI.trailer(movie: 7), to: trailerURL) { progress in
                log.handler(progress)
            }

            #expect(file.fileURL == trailerURL)
            #expect(file.byteCount == 5)
            #expect(file.response.headers["ETag"] == "v1")
            #expect(try Data(contentsOf: trailerURL) == Data("bytes".utf8))
            #expect(log.all.last?.completedBytes == 5)
            #expect(log.isMonotonic)
        }

        @Test("Downloads that survive the process: the same call at the next launch finishes the file; old partial files removed")
        func survivingDownloads() async throws {
            let body = RangeServer.content(count: 1_000_000)
            let server = try RangeServer(.init(body: body, headers: ["ETag": #""v1""#]), dropsAt: [300_000, 500_000])
            let downloadsDirectory = try TemporaryDirectory()
            let trailerURL = downloadsDirectory.file("trailer.mp4")
            let client = NetworkClient(configuration: ClientConfiguration(interceptors: [Loopback(base: server.baseURL)]))
            // An earlier run, which lost its connection at 30 %, and another destination's partial file,
            // abandoned a week and a day ago.
            await #expect(throws: APIError.self) { try await client.download(for: TrailerAPI.trailer(movie: 7), to: trailerURL) }
            let other = downloadsDirectory.file("poster.jpg")
            await #expect(throws: APIError.self) { try await client.download(for: TrailerAPI.trailer(movie: 7), to: other) }
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: -8 * 86_400)],
                ofItemAtPath: downloadsDirectory.file(".poster.jpg.partial").path)

            // At every launch, the same call: it finishes what an earlier run of the app left.
            let file = try await client.download(for: TrailerAPI.trailer(movie: 7), to: trailerURL)

            #expect(try Data(contentsOf: file.fileURL) == body)
            #expect(server.requests.last?.range == "bytes=300000-")
            #expect(downloadsDirectory.contents.count == 3, "the trailer, and the poster's partial file and record")

            let weekAgo = Date(timeIntervalSinceNow: -7 * 86_400)
            for partial in DownloadResumeData.partialDownloads(in: downloadsDirectory.url)
            where (partial.modificationDate ?? .distantPast) < weekAgo {
                partial.discard()  // the partial file and its record
            }
            #expect(downloadsDirectory.contents == ["trailer.mp4"])
        }

        /// Sends every request to a loopback server instead of the endpoint's host.
        struct Loopback: Interceptor {
            let base: String

            func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
                var request = request
                request.url = request.url.flatMap { URL(string: base + $0.path) }
                return request
            }
        }

        @Test("Resuming downloads: a failure's resume data, stored, resumes from a freshly signed link")
        func resumingDownloads() async throws {
            let body = RangeServer.content(count: 1_000_000)
            let server = try RangeServer(.init(body: body, headers: ["ETag": #""v1""#]), dropsAt: [300_000])
            let directory = try TemporaryDirectory()

            let (file, saved) = try await Self.resumeSnippet(
                client: NetworkClient(), signedURL: try server.url("/movie?signature=1"),
                newlySignedURL: try server.url("/movie?signature=2"), movieURL: directory.file("movie.mp4"),
                resumeURL: directory.file("movie.resume"))

            #expect(try Data(contentsOf: file.fileURL) == body)
            #expect(server.requests.map(\.path) == ["/movie?signature=1", "/movie?signature=2"])
            #expect(server.requests.last?.range == "bytes=\(saved.bytesReceived)-")
            #expect(server.bytesWritten < 1_010_000, "the rest only")
        }

        /// The snippet of "Resuming downloads", as written. It stands alone because Swift 6.3.1 crashes
        /// ("Found ownership error") compiling its `catch` pattern among some `#expect`s and `#require`s.
        static func resumeSnippet(
            client: NetworkClient, signedURL: URL, newlySignedURL: URL, movieURL: URL, resumeURL: URL
        ) async throws -> (DownloadedFile, DownloadResumeData) {
            do {
                let file = try await client.download(resuming: nil, with: URLRequest(url: signedURL), to: movieURL)
                print(file.byteCount)
            } catch let APIError.downloadInterrupted(error, resumeData) {
                print("stopped:", error)
                try JSONEncoder().encode(resumeData).write(to: resumeURL)  // Codable: keep it for another run
            }

            // Later, perhaps from a freshly signed link to the same file:
            let saved = try JSONDecoder().decode(DownloadResumeData.self, from: Data(contentsOf: resumeURL))
            let file = try await client.download(resuming: saved, with: URLRequest(url: newlySignedURL), to: movieURL)
            return (file, saved)
        }

        @Test("Large bodies in memory: response(for:progress:) returns the response to decode")
        func dataInMemory() async throws {
            let stubs = StubSession()
            stubs.register(.get, "/reports/export", .json(#"[{"day":"2026-05-01","views":3}]"#))
            let client = Article.client(stubs)
            let log = ProgressLog()

            let report = try await client.response(for: ReportAPI.export) { progress in
                log.handler(progress)
            }
            let rows = try JSONDecoder().decode([ReportRow].self, from: report.body)

            #expect(rows == [ReportRow(day: "2026-05-01", views: 3)])
            #expect(log.all.last?.completedBytes == Int64(report.body.count))
        }
    }
}
