import Foundation
import NetworkLayer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Transfers follow redirects that keep the method, body included", .httpbin)
struct TransferRedirectTests {
    enum Style: String, CaseIterable, Sendable {
        case data, download, stream
    }

    /// Sends a JSON body to `/redirect-to`, which answers `status` towards `/anything`, in `style`,
    /// and returns what `/anything` echoed.
    static func send(_ style: Style, status: Int, client: NetworkClient) async throws -> Echo {
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

    @Test(
        "data(for:), download and stream send a JSON body again after a 307 or 308",
        arguments: TransportKind.all, Style.allCases)
    func jsonBodySurvives(transport: TransportKind, style: Style) async throws {
        for status in [307, 308] {
            let echo = try await Self.send(style, status: status, client: transport.makeClient())
            #expect(echo.method == "POST")
            #expect(echo.json == .object(["title": .string("Heat")]))
        }
    }

    @Test(
        "A client that accepts 3xx still follows them, instead of taking the redirect for the answer",
        arguments: TransportKind.all, Style.allCases)
    func acceptedRedirectIsFollowed(transport: TransportKind, style: Style) async throws {
        let client = transport.makeClient(acceptableStatusCodes: Set(200..<400))
        let echo = try await Self.send(style, status: 307, client: client)
        #expect(echo.json == .object(["title": .string("Heat")]))
    }

    /// A POST to `/redirect-to`, answered with a 307 to `/anything`, whose body is a stream.
    static func streamedBodyRedirect() throws -> URLRequest {
        var request = URLRequest(url: try #require(URL(string: try HTTPBin.base() + "/redirect-to?url=/anything&status_code=307")))
        request.httpMethod = "POST"
        request.httpBodyStream = InputStream(data: Data(#"{"title":"Heat"}"#.utf8))
        return request
    }

    @Test(
        "A streamed body, which cannot be sent twice, gets its 307 back instead of arriving empty or in part",
        arguments: TransportKind.all)
    func streamedBodyIsNotResent(transport: TransportKind) async throws {
        let error = await #expect(throws: APIError.self) { try await transport.makeClient().download(with: Self.streamedBodyRedirect()) }
        #expect(error?.statusCode == 307, "\(String(describing: error))")
    }
}
