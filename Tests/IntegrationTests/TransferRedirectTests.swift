import Foundation
import NetworkLayer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(FoundationNetworking)
    @Suite("Transfers follow redirects that keep the method, body included", .httpbin)
    struct TransferRedirectTests {
        enum Style: String, CaseIterable, Sendable {
            case data, download, stream
        }

        /// Sends a JSON body to `/redirect-to`, which answers `status` towards `/anything`, in `style`,
        /// and returns what `/anything` echoed.
        static func send(_ style: Style, status: Int, client: NetworkClient = NetworkClient()) async throws -> Echo {
            let endpoint = try HTTPBinEndpoint(
                "/redirect-to", method: .post,
                task: .requestJSONBody(["title": "Heat"], urlParameters: ["url": "/anything", "status_code": status]))
            switch style {
            case .data:
                return try JSONDecoder().decode(Echo.self, from: try await client.response(for: endpoint).body)
            case .download:
                let file = try await client.download(for: endpoint)
                defer { try? FileManager.default.removeItem(at: file.fileURL) }
                return try JSONDecoder().decode(Echo.self, from: try Data(contentsOf: file.fileURL))
            case .stream:
                var body = Data()
                for try await chunk in try await client.stream(for: endpoint) { body.append(chunk) }
                return try JSONDecoder().decode(Echo.self, from: body)
            }
        }

        @Test("data(for:), download and stream send a JSON body again after a 307 or 308", arguments: Style.allCases, [307, 308])
        func jsonBodySurvives(style: Style, status: Int) async throws {
            let echo = try await Self.send(style, status: status)
            #expect(echo.method == "POST")
            #expect(echo.json == .object(["title": .string("Heat")]))
        }

        @Test("A client that accepts 3xx still follows them, instead of taking the redirect for the answer", arguments: Style.allCases)
        func acceptedRedirectIsFollowed(style: Style) async throws {
            let echo = try await Self.send(style, status: 307, client: NetworkClient(acceptableStatusCodes: Set(200..<400)))
            #expect(echo.json == .object(["title": .string("Heat")]))
        }

        @Test("A streamed body, which cannot be sent twice, gets its 307 back instead of arriving empty")
        func streamedBodyIsNotResent() async throws {
            let base = try HTTPBin.base()
            var request = URLRequest(url: try #require(URL(string: base + "/redirect-to?url=/anything&status_code=307")))
            request.httpMethod = "POST"
            request.httpBodyStream = InputStream(data: Data(#"{"title":"Heat"}"#.utf8))
            let error = await #expect(throws: APIError.self) { try await NetworkClient().download(for: request) }
            #expect(error?.statusCode == 307)
        }
    }
#endif
