import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An `HTTPTransport` that answers from canned responses in memory, and records what
/// it was sent: the same stubs as ``StubSession``, without `URLSession` or `URLProtocol`, so that it
/// behaves the same on every platform.
///
/// ```swift
/// let stubs = StubTransport()
/// stubs.register(.get, "/3/movie/popular", .json(#"{"page": 1, "results": []}"#))
/// let client = NetworkClient(transport: stubs)
/// let page = await client.fetch(MovieAPI.popular(page: 1), as: MoviePage.self)
/// #expect(stubs.requests.first?.query == "page=1")
/// ```
///
/// Routes match and queue as in ``StubSession``. A ``StubResponse/chunked(_:statusCode:headers:delay:)``
/// body reaches the reader chunk by chunk, each written only once the reader has room for it; a
/// `delay` holds the answer back (cancelling the request stops the wait), and a delay at least as
/// long as the request's timeout fails with `APIError.timedOut` once the timeout has passed. An
/// upload's file is read into ``RecordedRequest/body``, and its progress reported as sent at once.
public final class StubTransport: HTTPTransport {
    private let routes = StubRoutes()

    /// Creates an empty stub set.
    public init() {}

    /// Answers requests for `method` and `path` with `response`; registering a route again queues another response.
    /// - Parameters:
    ///   - method: The method to match; `.get` by default.
    ///   - path: The URL path to match, percent-decoded, for example `"/3/movie/popular"`.
    ///   - response: The answer.
    public func register(_ method: HTTPMethod = .get, _ path: String, _ response: StubResponse) {
        routes.register(method, path) { _ in response }
    }

    /// Answers requests for `method` and `path` by calling `respond` with each one; it queues like ``register(_:_:_:)``.
    /// - Parameters:
    ///   - method: The method to match; `.get` by default.
    ///   - path: The URL path to match, percent-decoded.
    ///   - respond: Returns the answer; it is called once per request, on the sending task.
    public func register(_ method: HTTPMethod = .get, _ path: String, respond: @escaping @Sendable (RecordedRequest) -> StubResponse) {
        routes.register(method, path, respond: respond)
    }

    /// Every request received so far, in arrival order, unmatched ones included.
    public var requests: [RecordedRequest] {
        routes.requests
    }

    /// The requests received for one method and path.
    public func requests(_ method: HTTPMethod, _ path: String) -> [RecordedRequest] {
        routes.requests(method, path)
    }

    /// Records `request` and answers it from the stubs.
    public func send(_ request: TransportRequest) async throws(APIError) -> TransportResponse {
        var fileBody: Data?
        if let file = request.bodyFile {
            do {
                fileBody = try Data(contentsOf: file)
            } catch {
                throw .requestFailed(URLError(.fileDoesNotExist, userInfo: [NSLocalizedDescriptionKey: "could not read \(file.path)"]))
            }
        }
        let recorded = RecordedRequest(request.urlRequest, body: fileBody)
        if let size = recorded.body?.count { request.sendProgress?(Int64(size), Int64(size)) }
        let answer = routes.respond(to: recorded)
        let timeout = request.urlRequest.timeoutInterval
        try await wait(answer.delay, timeout: timeout.isFinite && timeout > 0 ? timeout : nil)
        if let error = answer.error { throw APIError(transportError: error) }
        let head = HTTPResponse(statusCode: answer.statusCode, headers: answer.headers, url: request.urlRequest.url)
        guard let chunks = answer.chunks, chunks.count > 1 else { return TransportResponse(head: head, body: ResponseBody(answer.body)) }
        let (body, writer) = ResponseBody.makeStream(highWatermark: chunks.map(\.count).max() ?? 1)
        Task {
            for chunk in chunks {
                do throws(APIError) {
                    try await writer.write(chunk)
                } catch {
                    return
                }
            }
            writer.finish()
        }
        return TransportResponse(head: head, body: body)
    }

    /// Waits `delay` seconds, or fails with `.timedOut` after `timeout` when that is shorter.
    private func wait(_ delay: TimeInterval, timeout: TimeInterval?) async throws(APIError) {
        guard delay > 0 else { return }
        let timesOut = timeout.map { $0 <= delay } ?? false
        do {
            try await Task.sleep(nanoseconds: UInt64(min(delay, timeout ?? delay) * 1_000_000_000))
        } catch {
            throw .cancelled
        }
        if timesOut { throw .timedOut }
    }
}
