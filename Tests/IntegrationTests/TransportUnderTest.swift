import Foundation
import NetworkLayer
import Testing

/// A transport the load and fault tests run against, by name: each test takes one as its argument,
/// so another ``HTTPTransport`` is covered by adding it to ``all``.
struct TransportUnderTest: Sendable, CustomTestStringConvertible {
    /// The name the test results show.
    let name: String
    /// Makes a fresh client over the transport, as an application would keep one.
    let makeClient: @Sendable () -> NetworkClient

    var testDescription: String { name }

    /// The default transport, over the session `NetworkClient()` makes.
    static let urlSession = TransportUnderTest(name: "URLSessionTransport") { NetworkClient() }

    /// Every transport the suites cover.
    static let all: [TransportUnderTest] = [.urlSession]
}
