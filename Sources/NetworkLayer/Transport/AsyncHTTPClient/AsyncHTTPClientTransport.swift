#if AsyncHTTPClient
    import AsyncHTTPClient
    import Foundation
    import Tracing

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// An ``HTTPTransport`` over [AsyncHTTPClient](https://github.com/swift-server/async-http-client)
    /// (SwiftNIO), for servers and command-line tools on Linux: the same calls as over `URLSession`,
    /// at a fraction of its CPU per request. Compiled only with the package trait `AsyncHTTPClient`.
    ///
    /// ```swift
    /// let client = NetworkClient(transport: .asyncHTTPClient())
    /// ```
    ///
    /// It keeps every promise of ``HTTPTransport``: the head comes back as soon as it arrives, the
    /// body streams with backpressure (a reader that stops reading stops the socket being read),
    /// the request's `timeoutInterval` is an idle timeout to the millisecond, and cancelling closes the
    /// connection. Uploads from a file are read in chunks as they are sent, never whole, and report
    /// their progress as the bytes are written. Failures are the same ``APIError``s as over
    /// `URLSession`: a timeout is ``APIError/timedOut``, cancellation ``APIError/cancelled``, and a
    /// connection, TLS or protocol failure ``APIError/requestFailed(_:)`` with the `URLError` code of
    /// its cause and AsyncHTTPClient's own description. A certificate that fails verification is
    /// named by its fault (expired, not yet valid, unknown authority, another host's), as over
    /// `URLSession`; since NIOSSL does not say which, an expired or not yet valid certificate is told
    /// by connecting once more to read its dates.
    ///
    /// Redirects are NetworkLayer's, as over every transport: the `HTTPClient` must follow none itself
    /// (`redirectConfiguration: .disallow`, as in ``defaultConfiguration()``), and hands every `3xx`
    /// back for the client to follow by its ``RedirectPolicy``. A client that follows redirects itself
    /// fails the first one it follows with ``APIError/invalidRequest(_:)``, which says so. Connection
    /// pooling, TLS, proxies and decompression are the `HTTPClient`'s, which a transport makes from
    /// ``defaultConfiguration()`` unless given a configuration or a client. There is no cookie store
    /// (add a ``CookieJar``) and no URL cache.
    ///
    /// Each transport has a home event loop, taken from the client's group when it is made. A request
    /// alone in flight on the transport asks AsyncHTTPClient to run it there, so a run of requests one
    /// after another reuses a connection of that loop and runs every callback on it, instead of hopping
    /// to another loop's thread for each; requests among others take the group's loops in turn, so a
    /// burst spreads its connections over the group. Either way the request is handed to its loop once.
    ///
    /// When the transport makes its client from a configuration that does not decompress bodies (its
    /// `decompression` is `.disabled`, as in ``defaultConfiguration()``), the transport does: it asks for gzip and deflate unless the request
    /// says what it accepts, and inflates the body a slice at a time, each counted against
    /// ``TransportRequest/maximumBodySize`` before the next is inflated. There is no ratio limit, so a
    /// legitimate body that compresses well passes, and a decompression bomb stops within 2 MiB of
    /// the limit. A client that decompresses itself inflates all of a socket read at once (64 KiB can
    /// become 64 MiB) before the limit can see it.
    ///
    /// The transport's own client has its own connection pool and is shut down with the transport;
    /// only the event loop group (`HTTPClient.defaultEventLoopGroup`, one thread per core) is shared
    /// by every transport in the process, on purpose: threads are the one thing a client per
    /// transport would otherwise multiply.
    public struct AsyncHTTPClientTransport: HTTPTransport {
        /// The client that sends the requests. The transport never shuts down a client you gave it; one it
        /// made is shut down once the transport and every exchange through it are gone.
        let client: HTTPClient
        /// Whether gzip and deflate bodies are inflated here, since the client does not inflate them.
        private let inflates: Bool
        /// The client the transport made for itself, shut down with its last copy; `nil` for a client you gave it.
        private let owner: OwnedHTTPClient?
        /// The event loop each exchange prefers, shared by the transport's copies.
        private let affinity: AsyncHTTPClientEventLoopAffinity

        /// The configuration a transport makes its client from unless given another:
        /// `HTTPClient.shared`'s, with the changes below, which make it behave as ``URLSessionTransport`` does.
        /// Start a configuration of your own from it.
        ///
        /// - It follows no redirect: the client does, by its ``RedirectPolicy``.
        /// - A connection the server refuses fails the request at once, with
        ///   ``APIError/requestFailed(_:)`` (`cannotConnectToHost`). `HTTPClient.shared` retries it
        ///   until its 90-second connect timeout (async-http-client#743), so a request to a server that
        ///   is down would end only at its own timeout, as ``APIError/timedOut``.
        /// - Up to 64 connections per host, as in ``URLSessionTransport/defaultConfiguration()``, instead of
        ///   8: the time a request waits for a connection counts towards its timeout, and with 8, fifty
        ///   requests to one slow host time out in the queue.
        /// - No read timeout of AsyncHTTPClient's own (the singleton's is 90 seconds): the request's
        ///   idle timeout is the one timeout, and does not count the time a stream's reader holds the
        ///   body back. A configuration with a read timeout fails a request silent for that long.
        /// - No decompression of its own (`.disabled`) instead of the singleton's, limited to a ratio of
        ///   25 to 1: the transport inflates gzip and deflate bodies itself, with no ratio limit (JSON of
        ///   repetitive records compresses 160 to 1, and the singleton refuses it), bounded instead by
        ///   the client's ``ResponseLimits``, counted a slice at a time. A configuration whose
        ///   decompression has a limit fails a body past it with ``APIError/requestFailed(_:)``
        ///   (`dataLengthExceedsMaximum`).
        ///
        /// With the package trait `DistributedTracing` it has no tracer: the client makes each request's
        /// span itself, by OpenTelemetry's conventions (see <doc:ObservingRequests>), and a second one of
        /// AsyncHTTPClient's would double it. Without the trait, as every AsyncHTTPClient configuration
        /// does, it takes the tracer that the application has bootstrapped (`InstrumentationSystem`) when
        /// it is made; when none is, it has no tracer rather than the no-op one: AsyncHTTPClient would
        /// otherwise record every request's span attributes for nothing (about 9,000 instructions a
        /// request, 2% of one).
        public static func defaultConfiguration() -> HTTPClient.Configuration {
            var configuration = HTTPClient.Configuration.singletonConfiguration
            // The transport's idle timeout is the one timeout; AsyncHTTPClient's would count the time
            // a stream's reader holds the body back, and cut a longer timeout short.
            configuration.timeout.read = nil
            // Redirects are the client's, by its RedirectPolicy.
            configuration.redirectConfiguration = .disallow
            configuration.connectionPool.retryConnectionEstablishment = false
            configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
            // The transport inflates bodies itself, a slice at a time, so that the client's ResponseLimits
            // bound what a body inflates to; a ratio limit would refuse legitimate, compressible bodies.
            configuration.decompression = .disabled
            #if DistributedTracing
                configuration.tracing.tracer = nil
            #else
                if configuration.tracing.tracer is NoOpTracer { configuration.tracing.tracer = nil }
            #endif
            return configuration
        }

        /// Creates a transport over an `HTTPClient` of its own, made from `configuration` on
        /// AsyncHTTPClient's default event loop group, and shut down once the last copy of the
        /// transport and the last exchange through it are gone.
        ///
        /// When `configuration` does not decompress bodies (its `decompression` is `.disabled`, as in
        /// ``defaultConfiguration()``), the transport does, as described above. With the package trait
        /// `DistributedTracing`, its tracer is left out: the client makes each request's span, and
        /// AsyncHTTPClient's would double it (and send a second `traceparent`).
        /// - Parameter configuration: The client's configuration; ``defaultConfiguration()`` by default.
        public init(configuration: HTTPClient.Configuration = defaultConfiguration()) {
            #if DistributedTracing
                var configuration = configuration
                configuration.tracing.tracer = nil
            #endif
            let owner = OwnedHTTPClient(HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration))
            self.init(client: owner.client, inflates: Self.inflatesBodies(for: configuration), owner: owner)
        }

        /// Creates a transport over `client`, which stays yours: shut it down after the last request
        /// through it has ended. The transport inflates no body of its own accord: the client
        /// decompresses as its configuration says. With the package trait `DistributedTracing`, make
        /// `client` without a tracer (`configuration.tracing.tracer = nil`): the client makes each
        /// request's span, and AsyncHTTPClient's would double it, with a second `traceparent`.
        /// - Parameter client: The client to send through.
        public init(client: HTTPClient) {
            self.init(client: client, inflates: false, owner: nil)
        }

        /// Creates a transport over `client`, which `owner` (when given) shuts down with the transport's last copy.
        init(client: HTTPClient, inflates: Bool, owner: OwnedHTTPClient?) {
            self.client = client
            self.owner = owner
            self.inflates = inflates
            affinity = AsyncHTTPClientEventLoopAffinity(group: client.eventLoopGroup)
        }

        /// Whether the transport inflates gzip and deflate bodies itself: when a client made from
        /// `configuration` does not.
        static func inflatesBodies(for configuration: HTTPClient.Configuration) -> Bool {
            if case .disabled = configuration.decompression { return true }
            return false
        }

        /// Sends `request` and returns as soon as the head arrives; the body streams after it.
        public func send(_ request: TransportRequest) async throws(APIError) -> TransportResponse {
            try await exchange(request, mode: .stream)
        }

        /// Sends `request` and returns the response with its whole body, collected as it arrives.
        public func data(for request: TransportRequest) async throws(APIError) -> HTTPResponse {
            try await exchange(request, mode: .collect).head
        }

        private func exchange(_ request: TransportRequest, mode: AsyncHTTPClientExchange.Mode) async throws(APIError) -> TransportResponse {
            let (made, files) = try AsyncHTTPClientRequest.make(from: request, acceptsCompression: inflates)
            let loop = affinity.begin()
            defer { affinity.end() }
            let exchange = AsyncHTTPClientExchange(
                made, on: client, preferredLoop: loop, mode: mode,
                timeout: request.idleTimeout, sendProgress: request.sendProgress,
                canResend: request.bodyFile != nil || request.urlRequest.httpBodyStream == nil,
                files: files, maximumBodySize: request.maximumBodySize, inflates: inflates, owner: owner)
            switch await exchange.run() {
            case .success(let response): return response
            // NIOSSL does not say why a certificate failed verification: look at it to tell.
            case .failure(let error): throw await AsyncHTTPClientCertificateCheck.refined(error, client: client)
            }
        }
    }

    extension HTTPTransport where Self == AsyncHTTPClientTransport {
        /// An ``AsyncHTTPClientTransport`` over a client of its own, made from `configuration`:
        /// `NetworkClient(transport: .asyncHTTPClient())`; see ``AsyncHTTPClientTransport/init(configuration:)``.
        /// - Parameter configuration: The client's configuration; ``AsyncHTTPClientTransport/defaultConfiguration()`` by default.
        public static func asyncHTTPClient(
            configuration: HTTPClient.Configuration = AsyncHTTPClientTransport.defaultConfiguration()
        ) -> Self {
            AsyncHTTPClientTransport(configuration: configuration)
        }

        /// An ``AsyncHTTPClientTransport`` over `client`, which stays yours; see ``AsyncHTTPClientTransport/init(client:)``.
        /// - Parameter client: The client to send through.
        public static func asyncHTTPClient(_ client: HTTPClient) -> Self {
            AsyncHTTPClientTransport(client: client)
        }
    }
#endif
