#if SwiftLog
    import Foundation
    import InMemoryLogging
    import Logging
    import NetworkLayer
    import TestSupport
    import Testing

    /// What a call writes to a swift-log `Logger`, with swift-log's in-memory handler.
    @Suite("Logging to swift-log")
    struct SwiftLogTests {
        /// A logger at `level` writing to `handler`.
        static func logger(_ handler: InMemoryLogHandler, level: Logger.Level = .trace) -> Logger {
            var logger = Logger(label: "test") { _ in handler }
            logger.logLevel = level
            return logger
        }

        /// `entry`'s metadata value for `key`, as text.
        static func value(_ entry: InMemoryLogHandler.Entry, _ key: String) -> String? {
            entry.metadata[key].map { "\($0)" }
        }

        @Test(
            "A call logs each exchange and attempt at trace and its end at debug, with the request id, method, URL, status and attempt",
            arguments: TransportKind.all)
        func linesOfACall(transport: TransportKind) async throws {
            let server = try ObservedServer()
            let handler = InMemoryLogHandler()
            let client = transport.makeClient { $0.logger = Self.logger(handler) }
            _ = try await client.send(server.endpoint("/moved"), as: ObservedNote.self)

            let entries = handler.entries
            #expect(
                entries.map(\.message.description) == [
                    "request started", "exchange finished", "exchange finished", "attempt finished", "request finished",
                ])
            #expect(entries.map(\.level) == [.trace, .trace, .trace, .trace, .debug])
            #expect(Set(entries.compactMap { Self.value($0, "networklayer.request_id") }).count == 1)
            #expect(entries.allSatisfy { Self.value($0, "http.request.method") == "GET" })
            #expect(entries.compactMap { Self.value($0, "http.response.status_code") } == ["302", "200", "200", "200"])
            #expect(Self.value(entries[1], "url.full") == "\(server.baseURL)/moved")
            #expect(Self.value(entries[2], "url.full") == "\(server.baseURL)/notes/1")
            #expect(Self.value(entries[2], "networklayer.redirect_hop") == "1")
            #expect(Self.value(entries[3], "networklayer.attempt") == "1")
            #expect(Self.value(entries[3], "http.response.body.size") == "8")
            #expect(Self.value(entries[4], "networklayer.attempts") == "1")
            #expect(Self.value(entries[4], "networklayer.duration").flatMap(Double.init).map { $0 >= 0 } == true)
        }

        @Test("A failed call says why at debug, by error.type; a retried attempt says when it goes again", arguments: TransportKind.all)
        func failuresAndRetries(transport: TransportKind) async throws {
            let server = try ObservedServer()
            let handler = InMemoryLogHandler()
            let client = transport.makeClient {
                $0.logger = Self.logger(handler)
                $0.interceptors = [RetryPolicy(random: { 0 })]
            }
            _ = try await client.send(server.endpoint("/flaky"), as: ObservedNote.self)
            await #expect(throws: APIError.self) { try await client.send(server.endpoint("/missing"), as: ObservedNote.self) }
            let failed = handler.entries.filter { $0.message.description == "attempt failed" }
            #expect(failed.map { Self.value($0, "error.type") } == ["503", "404"])
            #expect(failed.map { Self.value($0, "networklayer.retry_in") } == ["0.000", nil])
            let last = try #require(handler.entries.last)
            #expect(last.message.description == "request failed")
            #expect(last.level == .debug)
            #expect(Self.value(last, "error.type") == "404")
            #expect(Self.value(last, "error.message") == nil, "a rejected status's message carries its body")
        }

        @Test("A cache's answer says so; a call's own logger wins over the client's")
        func cacheOutcomeAndCallLogger() async throws {
            let server = try ObservedServer()
            let clientHandler = InMemoryLogHandler()
            let callHandler = InMemoryLogHandler()
            let client = TransportKind.urlSession.makeClient {
                $0.logger = Self.logger(clientHandler)
                $0.interceptors = [HTTPCache()]
            }
            _ = try await client.send(server.endpoint("/cached"), as: ObservedNote.self)
            var call = Request(server.endpoint("/cached"), as: ObservedNote.self)
            call.options.logger = Self.logger(callHandler)
            _ = try await client.send(call)
            let answered = callHandler.entries.first { $0.message.description == "exchange answered without the network" }
            #expect(answered.flatMap { Self.value($0, "networklayer.cache") } == "hit")
            #expect(clientHandler.entries.count == 4, "the first call's four lines only")
        }

        @Test("Nothing is logged above debug: a logger at info gets no line")
        func nothingAboveDebug() async throws {
            let server = try ObservedServer()
            let handler = InMemoryLogHandler()
            let client = TransportKind.urlSession.makeClient { $0.logger = Self.logger(handler, level: .info) }
            _ = try await client.send(server.endpoint("/notes/1"), as: ObservedNote.self)
            await #expect(throws: APIError.self) { try await client.send(server.endpoint("/missing"), as: ObservedNote.self) }
            #expect(handler.entries.isEmpty)
        }

        @Test("No secret reaches a line: tokens, cookies, credential query values, signatures", arguments: TransportKind.all)
        func noSecretInLogs(transport: TransportKind) async throws {
            let server = try ObservedServer()
            let handler = InMemoryLogHandler()
            let client = transport.makeClient {
                $0.logger = Self.logger(handler)
                $0.interceptors = [BearerTokenAuthenticator(token: "secret-bearer"), CookieJar()]
            }
            var endpoint = server.endpoint("/notes/1")
            endpoint.task = .requestParameters(urlParameters: [
                "token": "secret-query", "AWSAccessKeyId": "secret-aws", "Signature": "secret-signature", "sig": "secret-sig",
                "X-Amz-Signature": "secret-amz", "X-Amz-Credential": "secret-credential", "X-Amz-Security-Token": "secret-session",
                "refresh_token": "secret-refresh",
            ])
            _ = try await client.send(endpoint, as: ObservedNote.self)
            _ = try await client.send(endpoint, as: ObservedNote.self)
            #expect(server.headers.last?["cookie"] == "session=secret-cookie")
            let text = handler.entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
            #expect(handler.entries.count == 8, "four lines a call")
            #expect(text.contains("AWSAccessKeyId=<redacted>"))
            #expect(!text.contains("secret"), "\(text)")
        }
    }
#endif
