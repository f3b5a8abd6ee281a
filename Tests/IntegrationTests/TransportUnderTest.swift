import Foundation
import NetworkLayer
import Testing

/// A transport the load and fault tests run against, by name: each test takes one as its argument,
/// so another ``HTTPTransport`` is covered by adding it to ``all``.
struct TransportUnderTest: Sendable, CustomTestStringConvertible {
    /// The name the test results show.
    let name: String
    private let make: @Sendable ([any Interceptor]) -> NetworkClient

    /// - Parameters:
    ///   - name: The name the test results show.
    ///   - make: Makes a fresh client over the transport with the given interceptors.
    init(name: String, make: @escaping @Sendable (_ interceptors: [any Interceptor]) -> NetworkClient) {
        self.name = name
        self.make = make
    }

    /// A fresh client over the transport, as an application would keep one.
    func makeClient(interceptors: [any Interceptor] = []) -> NetworkClient {
        make(interceptors)
    }

    var testDescription: String { name }

    /// The default transport, over the session `NetworkClient()` makes.
    static let urlSession = TransportUnderTest(name: "URLSessionTransport") { NetworkClient(interceptors: $0) }

    /// Every transport the suites cover.
    static let all: [TransportUnderTest] = [.urlSession]
}
