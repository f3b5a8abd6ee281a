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
        static func send(_ style: Style, status: Int) async throws -> Echo {
            let endpoint = try HTTPBinEndpoint(
                "/redirect-to", method: .post,
                task: .requestJSONBody(["title": "Heat"], urlParameters: ["url": "/anything", "status_code": status]))
            let client = NetworkClient()
            switch style {
            case .data:
                return try JSONDecoder().decode(Echo.self, from: try await client.data(for: endpoint).body)
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
    }
#endif
