/// A parsed command line: what to do and which API to do it against.
public struct Invocation: Sendable, Equatable {
    /// What the command line asks for.
    public enum Action: Sendable, Equatable {
        /// Print the usage text.
        case help
        /// Make this API call and print its result.
        case call(MovieAPI)
    }

    /// Which API answers.
    public enum Target: Sendable, Equatable {
        /// The embedded fixture server, started for this run on 127.0.0.1.
        case embedded
        /// A real or custom API, given with `--env` or `--base-url`.
        case remote(APIEnvironment)
    }

    /// What to do.
    public var action: Action
    /// Which API answers.
    public var target: Target
    /// The key given with `--api-key`, if any.
    public var apiKey: String?
    /// The seconds given with `--timeout`, if any.
    public var timeout: Double?

    /// Creates an invocation.
    public init(action: Action, target: Target = .embedded, apiKey: String? = nil, timeout: Double? = nil) {
        self.action = action
        self.target = target
        self.apiKey = apiKey
        self.timeout = timeout
    }
}
