import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if AHC
    import AsyncHTTPClient
    import NIOCore
    import NIOFoundationCompat
    import NIOHTTP1
#endif

/// `GET /movies?page=1` decoded as a ``MoviePage``, sent one of several ways: the request that
/// `request-profile` and `soak` repeat, so that every side does the same work.
public struct MoviesRequest: Sendable {
    /// Who sends the request.
    public enum Side: String, Sendable, CaseIterable {
        /// The layer over its default transport: `NetworkClient.send(_:as:)`.
        case ours
        /// `URLSession.data(for:)` and `JSONDecoder`.
        case raw
        #if AHC
            /// The layer over `AsyncHTTPClientTransport`.
            case ahc
            /// `HTTPClient.execute` and `collect` on ``MoviesRequest/rawClient``, and `JSONDecoder`.
            case ahcRaw = "ahc-raw"
        #endif

        /// The sides this build has, as their arguments are spelled.
        public static var names: [String] { allCases.map(\.rawValue) }
    }

    /// Who sends it.
    public let side: Side
    private let base: String
    /// The client of the layer's sides.
    private let client: NetworkClient?
    /// The session of the `raw` side.
    private let session: URLSession?
    private let decoder = JSONDecoder()

    /// Makes only what `side` sends with, so that a run of one side starts nothing of another (the event
    /// loops of AsyncHTTPClient's, say).
    /// - Parameters:
    ///   - side: Who sends the request.
    ///   - base: The server's URL, without a path.
    ///   - session: The session of `ours` and `raw`, to answer from memory (a `StubSession`'s); by default
    ///     `ours` uses `NetworkClient()` and `raw` a session made from `URLSessionTransport.defaultConfiguration()`.
    public init(_ side: Side, base: String, session: URLSession? = nil) {
        self.side = side
        self.base = base
        switch side {
        case .ours:
            client = session.map { NetworkClient(transport: URLSessionTransport(session: $0)) } ?? NetworkClient()
            self.session = nil
        case .raw:
            client = nil
            self.session = session ?? URLSession(configuration: URLSessionTransport.defaultConfiguration())
        #if AHC
            case .ahc:
                client = NetworkClient(transport: .asyncHTTPClient())
                self.session = nil
            case .ahcRaw:
                client = nil
                self.session = nil
        #endif
        }
    }

    /// Sends the request once; false when it failed.
    public func send() async -> Bool {
        if let client {
            return (try? await client.send(MoviesEndpoint(base: base), as: MoviePage.self)) != nil
        }
        if let session {
            guard let url = URL(string: base + "/movies?page=1") else { return false }
            return await Self.send(url, on: session, decoder: decoder)
        }
        #if AHC
            return await Self.send(base + "/movies?page=1", on: Self.rawClient, decoder: decoder)
        #else
            return false
        #endif
    }

    /// The raw `URLSession` side: `data(for:)`, a 200, and `decoder`; false when any fails.
    public static func send(_ url: URL, on session: URLSession, decoder: JSONDecoder) async -> Bool {
        guard let (data, response) = try? await session.data(for: URLRequest(url: url)),
            (response as? HTTPURLResponse)?.statusCode == 200
        else { return false }
        return (try? decoder.decode(MoviePage.self, from: data)) != nil
    }

    #if AHC
        /// The client the raw AsyncHTTPClient side sends through, made as a transport makes its own:
        /// from `AsyncHTTPClientTransport.defaultConfiguration()` on `HTTPClient.defaultEventLoopGroup`.
        /// It lives as long as the process.
        public static let rawClient = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: AsyncHTTPClientTransport.defaultConfiguration())

        /// The raw AsyncHTTPClient side: `execute`, a 200, `collect` and `decoder`; false when any fails.
        public static func send(_ url: String, on client: HTTPClient, decoder: JSONDecoder) async -> Bool {
            guard let response = try? await client.execute(HTTPClientRequest(url: url), timeout: .seconds(60)),
                response.status == .ok, let body = try? await response.body.collect(upTo: 1 << 20)
            else { return false }
            return (try? decoder.decode(MoviePage.self, from: body)) != nil
        }
    #endif
}

/// `GET /movies?page=1`, a ~1 KB ``MoviePage``: what the layer's sides of the request benchmarks send.
public struct MoviesEndpoint: Endpoint, Sendable {
    /// The server's URL, without a path.
    public let base: String
    /// `/movies`.
    public var path: String { "/movies" }
    /// The query `page=1`.
    public var task: HTTPTask { .requestParameters(urlParameters: ["page": 1]) }

    /// The endpoint on the server at `base`.
    public init(base: String) {
        self.base = base
    }
}
