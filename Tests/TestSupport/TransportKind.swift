import Foundation
import NetworkLayer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport a test runs over, as its argument: the tests of behaviour every transport must share
/// take one and run once per transport this build has.
///
/// Such a test names its argument `transport` (`func timesOut(transport: TransportKind)`):
/// `scripts/test` selects the trait build's transport tests with `--filter transport:`, so a test
/// of AsyncHTTPClient alone takes one too, with `arguments: TransportKind.all.filter { … }`.
///
/// The default build has ``urlSession``; with the `AsyncHTTPClient` trait there is
/// ``asyncHTTPClient`` too. `NETWORKLAYER_TRANSPORTS` (a comma-separated list of raw values) narrows
/// a run to some of them: `scripts/test` runs the trait build's transport tests over
/// AsyncHTTPClient only, since the default build's run has covered URLSession.
public enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// ``URLSessionTransport`` over the session `NetworkClient()` makes.
    case urlSession = "URLSession"
    #if AsyncHTTPClient
        /// ``AsyncHTTPClientTransport`` over its default client.
        case asyncHTTPClient = "AsyncHTTPClient"
    #endif

    /// The transports this run covers.
    public static let all: [TransportKind] = {
        guard let names = ProcessInfo.processInfo.environment["NETWORKLAYER_TRANSPORTS"], !names.isEmpty else { return allCases }
        let wanted = Set(names.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        return allCases.filter { wanted.contains($0.rawValue) }
    }()

    /// The name the test results show: the raw value.
    public var testDescription: String { rawValue }

    /// Whether this is FoundationNetworking's transport, whose traps some tests are about.
    public var isURLSession: Bool { self == .urlSession }

    /// The connections the transport opens to one host at most before requests queue: 64, as
    /// `URLSessionTransport.defaultConfiguration()` and `AsyncHTTPClientTransport.defaultConfiguration()` set.
    public var connectionsPerHost: Int { 64 }

    /// A fresh client over this transport, as an application would keep one.
    /// - Parameters:
    ///   - timeout: The idle timeout of requests that set none; the client's default (60 s) by default.
    ///   - acceptableStatusCodes: The statuses that count as success; `200..<300` by default.
    ///   - interceptors: The client's interceptors; none by default.
    ///   - responseLimits: How large a response body may grow; `.default` by default.
    public func makeClient(
        timeout: TimeInterval? = nil,
        acceptableStatusCodes: Set<Int> = Set(200..<300),
        interceptors: [any Interceptor] = [],
        responseLimits: ResponseLimits = .default
    ) -> NetworkClient {
        NetworkClient(
            transport: makeTransport(),
            configuration: ClientConfiguration(
                acceptableStatusCodes: acceptableStatusCodes, interceptors: interceptors, timeout: timeout ?? 60,
                responseLimits: responseLimits))
    }

    /// This transport, as an application would make it.
    public func makeTransport() -> any HTTPTransport {
        switch self {
        case .urlSession:
            return URLSessionTransport(configuration: URLSessionTransport.defaultConfiguration())
        #if AsyncHTTPClient
            case .asyncHTTPClient:
                return AsyncHTTPClientTransport()
        #endif
        }
    }
}
