import Foundation
import NetworkLayer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Uploads answered by a response that the server ends by closing the connection (HTTP/1.0, no
/// `Content-Length`), after it has read the whole body. Runs in the fault pass (`NETWORKLAYER_FAULTS=1`).
///
/// Over URLSession every call gets the answer. Over AsyncHTTPClient 1.37 one to four in 600 (50 at once)
/// fail with `networkConnectionLost` ("Remote connection closed"), a multipart form and a plain file
/// alike, where 6,000 `GET`s of the same answer never did; AsyncHTTPClient alone does the same through
/// its delegate API (`execute(request:)`, which the transport uses), and never did in 4,800 `POST`s
/// through its async API (`execute(_:timeout:)`). Its `HTTPRequestStateMachine` fails a request whose
/// response ends with the connection while the request's body still counts as being sent. Such a `POST`
/// is not retried (the server had the whole request); a `PUT` under a ``RetryPolicy`` is, and its form
/// is encoded again for the second attempt.
@Suite("Uploads answered by a closing server", .serialized, .faultserver, .faults)
struct MultipartFaultTests {
    /// What an upload sends.
    enum Body: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case multipart = "a multipart form"
        case file = "a file"

        var testDescription: String { rawValue }
    }

    @Test(
        "600 uploads, 50 at once, answered by a response ended by closing, all get the answer", arguments: TransportKind.all, Body.allCases)
    func uploadsOverClose(transport: TransportKind, body: Body) async throws {
        let base = try FaultServer.base()
        let directory = try TemporaryDirectory()
        let file = directory.file("note.txt")
        try Data(repeating: 0x61, count: 2_000).write(to: file)
        let failures = await Self.failures(on: transport.makeClient(timeout: 10)) { index in
            var endpoint = HTTPBinEndpoint(base: base, path: "/http10-no-length")
            endpoint.method = .post
            switch body {
            case .multipart: endpoint.task = .uploadMultipart(Self.form(index, file: file))
            case .file: endpoint.task = .uploadFile(file, contentType: "text/plain")
            }
            return endpoint
        }
        let lostConnections = failures.filter { failure in
            if case .requestFailed(let urlError) = failure { return urlError.code == .networkConnectionLost }
            return false
        }
        #expect(lostConnections.count == failures.count, "\(failures.prefix(3).map(String.init(describing:)))")
        withKnownIssue("AsyncHTTPClient 1.37 fails a few such uploads with a lost connection", isIntermittent: true) {
            #expect(failures.isEmpty, "\(failures.count) of 600 failed: \(failures.prefix(3).map(String.init(describing:)))")
        } when: {
            !transport.isURLSession
        }
    }

    @Test(
        "600 multipart PUTs, 50 at once, answered by a response ended by closing, all get the answer with a RetryPolicy",
        arguments: TransportKind.all)
    func retriedPutsOverClose(transport: TransportKind) async throws {
        let base = try FaultServer.base()
        let directory = try TemporaryDirectory()
        let file = directory.file("note.txt")
        try Data(repeating: 0x61, count: 2_000).write(to: file)
        // A PUT may be sent twice, and its form is encoded again for each attempt: the server reads a whole body each time.
        let client = transport.makeClient(timeout: 10, interceptors: [RetryPolicy(maximumAttempts: 2, baseDelay: 0.01)])
        let failures = await Self.failures(on: client) { index in
            var endpoint = HTTPBinEndpoint(base: base, path: "/http10-no-length")
            endpoint.method = .put
            endpoint.task = .uploadMultipart(Self.form(index, file: file))
            return endpoint
        }
        #expect(failures.isEmpty, "\(failures.count) of 600 failed: \(failures.prefix(3).map(String.init(describing:)))")
    }

    /// A form of a text field and `file`.
    static func form(_ index: Int, file: URL) -> MultipartFormData {
        var form = MultipartFormData()
        form.append("note \(index)", name: "title")
        form.append(fileAt: file, name: "file", contentType: "text/plain")
        return form
    }

    /// The failures of 600 uploads of `endpoint(index)` through `client`, 50 at once.
    static func failures(on client: NetworkClient, _ endpoint: @escaping @Sendable (Int) -> HTTPBinEndpoint) async -> [APIError] {
        await withTaskGroup(of: APIError?.self) { group in
            var failures: [APIError] = []
            for index in 0..<600 {
                if index >= 50, let failure = await group.next() { failure.map { failures.append($0) } }
                group.addTask {
                    do throws(APIError) {
                        let _: FaultTests.Reply = try await client.upload(for: endpoint(index))
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            for await failure in group { failure.map { failures.append($0) } }
            return failures
        }
    }
}

#if AsyncHTTPClient
    import AsyncHTTPClient
    import NIOCore

    extension MultipartFaultTests {
        @Test("AsyncHTTPClient alone, through its delegate API: 600 POSTs of 2 KB, 50 at once, answered by a response ended by closing")
        func asyncHTTPClientAlone() async throws {
            let base = try FaultServer.base()
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
            let outcomes = await withTaskGroup(of: Result<Int, any Error>.self) { group in
                var outcomes: [Result<Int, any Error>] = []
                for index in 0..<600 {
                    if index >= 50, let outcome = await group.next() { outcomes.append(outcome) }
                    group.addTask {
                        do {
                            let request = try HTTPClient.Request(
                                url: base + "/http10-no-length", method: .POST, body: .bytes(Data(repeating: 0x61, count: 2_000)))
                            let response = try await client.execute(request: request).get()
                            return .success(Int(response.status.code))
                        } catch {
                            return .failure(error)
                        }
                    }
                }
                for await outcome in group { outcomes.append(outcome) }
                return outcomes
            }
            try await client.shutdown()
            let failures = outcomes.compactMap { outcome -> (any Error)? in
                if case .failure(let error) = outcome { return error }
                return nil
            }
            #expect(outcomes.count == 600)
            #expect(outcomes.allSatisfy { (try? $0.get()).map { $0 == 200 } ?? true }, "every answer that came is the server's 200")
            #expect(failures.allSatisfy { ($0 as? HTTPClientError) == .remoteConnectionClosed }, "\(failures.prefix(3))")
            withKnownIssue("AsyncHTTPClient 1.37 fails a few such requests with remoteConnectionClosed", isIntermittent: true) {
                #expect(failures.isEmpty, "\(failures.count) of 600 failed: \(failures.prefix(3))")
            }
        }
    }
#endif
