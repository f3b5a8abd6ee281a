import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What httpbin's `/bearer` and `/basic-auth` answer when the credentials are accepted.
private struct Authenticated: Decodable, Sendable {
    let authenticated: Bool
    let token: String?
    let user: String?
}

/// Everything a test's interceptors saw, collected across tasks.
private final class Collected<Element: Sendable>: Sendable {
    private let storage = Locked<[Element]>([])
    func append(_ element: Element) { storage.withLock { $0.append(element) } }
    var elements: [Element] { storage.withLock { $0 } }
}

@Suite("Authentication over real HTTP", .httpbin)
struct AuthenticationIntegrationTests {
    @Test("/bearer accepts the token a BearerTokenAuthenticator sends", arguments: TransportKind.all)
    func bearer(transport: TransportKind) async throws {
        let client = transport.makeClient(interceptors: [BearerTokenAuthenticator(token: "abc123")])
        let answer: Authenticated = try await client.send(HTTPBinEndpoint("/bearer"))
        #expect(answer.authenticated)
        #expect(answer.token == "abc123")
    }

    @Test(
        "/bearer answers 401 without a token (a Bearer challenge, which FoundationNetworking returns normally)",
        arguments: TransportKind.all)
    func bearerMissing(transport: TransportKind) async throws {
        let result = await transport.makeClient().fetch(try HTTPBinEndpoint("/bearer"), as: Authenticated.self)
        #expect(result.failure?.statusCode == 401)
        #expect(result.failure?.response?.headers["WWW-Authenticate"] == "Bearer")
    }

    @Test("/basic-auth accepts the credentials a BasicAuthenticator sends up front", arguments: TransportKind.all)
    func basic(transport: TransportKind) async throws {
        let client = transport.makeClient(interceptors: [BasicAuthenticator(username: "user", password: "passwd")])
        let answer: Authenticated = try await client.send(HTTPBinEndpoint("/basic-auth/user/passwd"))
        #expect(answer.authenticated)
        #expect(answer.user == "user")
    }

    @Test("A rejected credential is refreshed once and the request retried with the new one", arguments: TransportKind.all)
    func refresh(transport: TransportKind) async throws {
        let refreshes = Collected<String?>()
        // httpbin rejects any Authorization that is not a bearer token, which stands in for an expired one.
        let auth = RefreshingAuthenticator<String>(
            credential: "Token expired",
            apply: { credential, request in request.setValue(credential, forHTTPHeaderField: "Authorization") },
            refresh: { old in
                refreshes.append(old)
                return "Bearer fresh"
            }
        )
        let attempts = Collected<Int?>()
        let monitor = EventMonitor { event in
            if case .attemptFinished(let metrics) = event { attempts.append(metrics.statusCode) }
        }
        let answer: Authenticated = try await transport.makeClient(interceptors: [auth, monitor]).send(HTTPBinEndpoint("/bearer"))
        #expect(answer.token == "fresh")
        #expect(refreshes.elements == ["Token expired"])
        #expect(attempts.elements == [401, 200])
    }
}

@Suite("Retries over real HTTP", .httpbin)
struct RetryIntegrationTests {
    @Test("Against /status/503 a RetryPolicy makes every attempt, then fails with the last 503", arguments: TransportKind.all)
    func retriesEndInFailure(transport: TransportKind) async throws {
        let statuses = Collected<Int?>()
        let finished = Collected<RequestMetrics>()
        let monitor = EventMonitor { event in
            switch event {
            case .attemptFinished(let metrics): statuses.append(metrics.statusCode)
            case .requestFinished(let metrics): finished.append(metrics)
            case .requestStarted, .exchangeFinished: break
            }
        }
        let policy = RetryPolicy(maximumAttempts: 3, baseDelay: 0.01, random: { 1 })
        let client = transport.makeClient(interceptors: [policy, monitor])
        let result = await client.fetch(try HTTPBinEndpoint("/status/503"), as: Empty.self)
        #expect(result.failure?.statusCode == 503)
        #expect(statuses.elements == [503, 503, 503])
        #expect(finished.elements.map(\.attempts) == [3])
        #expect(finished.elements.first?.error == result.failure)
    }

    @Test("A 404 is not retried", arguments: TransportKind.all)
    func notRetried(transport: TransportKind) async throws {
        let statuses = Collected<Int?>()
        let monitor = EventMonitor { event in
            if case .attemptFinished(let metrics) = event { statuses.append(metrics.statusCode) }
        }
        let client = transport.makeClient(interceptors: [RetryPolicy(baseDelay: 0.01), monitor])
        _ = await client.fetch(try HTTPBinEndpoint("/status/404"), as: Empty.self)
        #expect(statuses.elements == [404])
    }
}

@Suite("Logging over real HTTP", .httpbin)
struct LoggingIntegrationTests {
    @Test("At debug level the logger writes the real exchange with credentials redacted both ways", arguments: TransportKind.all)
    func debugExchange(transport: TransportKind) async throws {
        let lines = Collected<String>()
        // Bodies are never redacted, and this endpoint echoes its headers in the body, so it is left out.
        let logger = NetworkLogger(level: .debug, bodyLimit: 0) { lines.append($0) }
        let client = transport.makeClient(interceptors: [BearerTokenAuthenticator(token: "t0k3n"), logger])
        let endpoint = try HTTPBinEndpoint(
            "/response-headers", headers: ["Cookie": "theme=dark"],
            task: .requestParameters(urlParameters: ["Set-Cookie": "session=abc"]))
        _ = try await client.response(for: endpoint)

        let message = try #require(lines.elements.first)
        let base = try HTTPBin.base()
        #expect(message.hasPrefix("GET \(base)/response-headers?Set-Cookie=session%3Dabc → 200 OK, "))
        #expect(message.contains("\n> Authorization: <redacted>"))
        #expect(message.contains("\n> Cookie: <redacted>"))
        #expect(message.contains("\n< Set-Cookie: <redacted>"))
        #expect(message.contains("\n< Content-Type: application/json"))
        #expect(!message.contains("t0k3n") && !message.contains("theme=dark") && !message.contains("session=abc"))
    }

    @Test("At info level the logger writes one line per request with credential query values redacted", arguments: TransportKind.all)
    func infoLine(transport: TransportKind) async throws {
        let lines = Collected<String>()
        let client = transport.makeClient(interceptors: [NetworkLogger { lines.append($0) }])
        let endpoint = try HTTPBinEndpoint("/get", task: .requestParameters(urlParameters: ["api_key": "s3cr3t", "q": "x"]))
        let echo: Echo = try await client.send(endpoint)
        #expect(echo.args["api_key"] == "s3cr3t", "the real value was sent")
        #expect(lines.elements.count == 1)
        let line = try #require(lines.elements.first)
        #expect(line.hasPrefix("GET \(try HTTPBin.base())/get?api_key=<redacted>&q=x → 200 OK, "))
        #expect(line.contains(", sent 0 B, received "))
    }
}
