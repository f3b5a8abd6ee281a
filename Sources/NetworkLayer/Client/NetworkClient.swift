import Foundation

/// A ready ``APIClient``: `NetworkClient()` works as it is, and every setting has a default.
///
/// Create one and keep it: its transport keeps connections for its whole life (a ``URLSessionTransport``
/// owns one `URLSession`; short-lived sessions are costly and, on Linux, tearing them down can crash),
/// and its interceptors keep their state.
///
/// ```swift
/// let client = NetworkClient(baseURL: URL(string: "https://api.example.com/v1")) {
///     $0.interceptors = [auth, RetryPolicy()]
/// }
/// let tests = NetworkClient(transport: stubs, configuration: ClientConfiguration(interceptors: [HTTPCache()]))
/// ```
public struct NetworkClient: APIClient {
    /// What sends each attempt.
    public let transport: any HTTPTransport
    /// The client's settings for every call.
    public let configuration: ClientConfiguration

    /// Creates a client that sends through `transport` with `configuration`.
    /// - Parameters:
    ///   - transport: What sends each attempt; a new ``URLSessionTransport`` (a session of its own,
    ///     made by ``URLSessionTransport/defaultConfiguration()``) by default.
    ///   - configuration: The settings of every call.
    public init(transport: any HTTPTransport = URLSessionTransport(), configuration: ClientConfiguration) {
        self.transport = transport
        self.configuration = configuration
    }

    /// Creates a client with the default configuration and `baseURL`, as `configure` changes it:
    /// `NetworkClient()` is a ready client over a session of its own.
    /// - Parameters:
    ///   - baseURL: What endpoints with a relative ``Endpoint/base`` resolve against; `nil` (none) by default.
    ///   - transport: What sends each attempt; a new ``URLSessionTransport`` by default.
    ///   - configure: Changes the configuration, `{ $0.interceptors = [auth]; $0.deadline = 30 }`; nothing by default.
    public init(
        baseURL: URL? = nil,
        transport: any HTTPTransport = URLSessionTransport(),
        configure: (inout ClientConfiguration) -> Void = { _ in }
    ) {
        var configuration = ClientConfiguration(baseURL: baseURL)
        configure(&configuration)
        self.init(transport: transport, configuration: configuration)
    }
}
