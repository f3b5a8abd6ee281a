/// A running embedded API for `movies` to talk to when no `--base-url` or `--env` is given.
///
/// MoviesKit does not know which server that is: the `movies` program starts the fixture
/// server, and tests hand in one they started themselves.
public struct EmbeddedBackend: Sendable {
    /// The base URL with the API's path prefix, for example `http://127.0.0.1:41234/3`.
    public let baseURL: String
    /// The key the server accepts; used unless `--api-key` gives another.
    public let apiKey: String
    /// Stops the server once the command is done.
    public let stop: @Sendable () async -> Void

    /// Creates a backend description.
    /// - Parameters:
    ///   - baseURL: The base URL, with scheme, host, port and path prefix.
    ///   - apiKey: The key the server accepts.
    ///   - stop: Stops the server; does nothing by default, for servers the caller stops itself.
    public init(baseURL: String, apiKey: String, stop: @escaping @Sendable () async -> Void = {}) {
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.stop = stop
    }
}
