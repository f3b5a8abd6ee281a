import Foundation
import NetworkLayer
import NetworkLayerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An endpoint whose every property is set by the test.
struct TestEndpoint: Endpoint {
    var base = "https://api.example.com"
    var path = "/items"
    var method: HTTPMethod = .get
    var headers: HTTPHeaders = [:]
    var task: HTTPTask = .request
    var timeout: TimeInterval?
    var urlParameterEncoder = URLParameterEncoder()
    var deadline: TimeInterval?
    var requiresAuthentication = true
    var validateResponse: (@Sendable (HTTPResponse) throws -> Void)?
    var urlTemplate: String?
    var options: CallOptions {
        CallOptions(
            timeout: timeout, deadline: deadline, requiresAuthentication: requiresAuthentication, validateResponse: validateResponse,
            urlTemplate: urlTemplate)
    }
}

/// A small model decoded in tests.
struct Movie: Codable, Equatable, Sendable {
    let id: Int
    let title: String
}

/// A page of movies, shaped like TMDB's.
struct MoviePage: Codable, Equatable, Sendable {
    let page: Int
    let results: [Movie]
    let totalResults: Int

    enum CodingKeys: String, CodingKey {
        case page, results
        case totalResults = "total_results"
    }
}

/// A stub session and a client over it with a private callback queue, so nothing waits on the main queue.
struct StubbedClient {
    let stubs = StubSession()
    let client: NetworkClient

    init(acceptableStatusCodes: Set<Int> = Set(200..<300), encoder: JSONEncoder = JSONEncoder()) {
        client = NetworkClient(
            transport: URLSessionTransport(session: stubs.session),
            configuration: ClientConfiguration(
                encoder: encoder, acceptableStatusCodes: acceptableStatusCodes, callbackQueue: DispatchQueue(label: "tests.callback")))
    }
}

extension Result {
    /// The failure, or `nil` on success.
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}

/// The query of a built request's URL, percent-encoded as sent.
func query(of request: URLRequest) -> String? {
    request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.percentEncodedQuery }
}

/// The body of a built request as UTF-8 text.
func bodyText(of request: URLRequest) -> String? {
    request.httpBody.flatMap { String(data: $0, encoding: .utf8) }
}

/// Waits, without blocking a thread, until `condition` holds or `timeout` seconds pass; returns whether it held.
///
/// It returns as soon as `condition` holds, so the timeout is generous: it only bounds how long a
/// failing test waits, on a machine that may be running hundreds of other tests. The checks start
/// 1 ms apart and back off to 20 ms, so that many waiting tests do not keep two cores busy polling.
func eventually(timeout: TimeInterval = 30, _ condition: @Sendable () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    var pause: UInt64 = 1_000_000
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: pause)
        pause = min(pause * 2, 20_000_000)
    }
    return condition()
}

/// A thread-safe array for test bookkeeping across tasks and queues.
final class LockedArray<Element: Sendable>: Sendable {
    private let storage = Locked<[Element]>([])
    func append(_ element: Element) { storage.withLock { $0.append(element) } }
    var elements: [Element] { storage.withLock { $0 } }
    var count: Int { elements.count }
}

extension APIError {
    /// The text of an `.encodingFailed` error, or `nil` for any other case.
    var encodingFailureReason: String? {
        if case .encodingFailed(let reason) = self { reason } else { nil }
    }

    /// The text of an `.invalidRequest` error, or `nil` for any other case.
    var invalidRequestReason: String? {
        if case .invalidRequest(let reason) = self { reason } else { nil }
    }
}

extension NetworkClient {
    /// This client with `validate` as its configuration's check of every response.
    func withValidation(_ validate: @escaping @Sendable (HTTPResponse) throws -> Void) -> NetworkClient {
        var configuration = configuration
        configuration.validate = validate
        return NetworkClient(transport: transport, configuration: configuration)
    }
}
