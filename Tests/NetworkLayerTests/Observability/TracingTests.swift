#if DistributedTracing
    import Foundation
    import InMemoryTracing
    import NetworkLayer
    import TestSupport
    import Testing
    import Tracing

    /// The spans of calls, by OpenTelemetry's stable HTTP client conventions, with swift-distributed-tracing's
    /// in-memory tracer.
    @Suite("Spans by OpenTelemetry's HTTP client conventions")
    struct TracingTests {
        /// A client with `interceptors`; it traces to the tracer bound to the task that calls it.
        static func client(_ transport: TransportKind, _ interceptors: [any Interceptor] = []) -> NetworkClient {
            transport.makeClient { $0.interceptors = interceptors }
        }

        /// Runs `body` with `tracer` bound to the task, inside a SERVER span of it, as a service's
        /// request handler, and returns that span's context.
        static func underServerSpan(
            _ tracer: InMemoryTracer, _ body: () async throws -> Void
        ) async throws -> InMemorySpanContext? {
            let parent = tracer.startSpan("GET /handler", context: .topLevel, ofKind: .server)
            try await withTracer(tracer) {
                try await ServiceContext.withValue(parent.context) { try await body() }
            }
            parent.end()
            return parent.context.inMemorySpanContext
        }

        /// The CLIENT spans `tracer` finished, in order.
        static func clientSpans(_ tracer: InMemoryTracer) -> [FinishedInMemorySpan] {
            tracer.finishedSpans.filter { $0.kind == .client }
        }

        @Test(
            "A call makes one CLIENT span, a child of the caller's, with the conventions' attributes, and its context reaches the server",
            arguments: TransportKind.all)
        func oneSpanPerCall(transport: TransportKind) async throws {
            let server = try ObservedServer()
            let tracer = InMemoryTracer()
            let client = Self.client(transport)
            var endpoint = server.endpoint("/notes/42", template: "/notes/{id}")
            endpoint.task = .requestParameters(urlParameters: ["token": "secret-token", "sig": "secret-sig", "page": "2"])
            let parent = try await Self.underServerSpan(tracer) { _ = try await client.send(endpoint, as: ObservedNote.self) }

            let spans = Self.clientSpans(tracer)
            try #require(spans.count == 1)
            let span = spans[0]
            #expect(span.operationName == "GET /notes/{id}")
            #expect(span.parentSpanID == parent?.spanID)
            #expect(span.traceID == parent?.traceID)
            #expect(span.attributes["http.request.method"]?.toSpanAttribute() == .string("GET"))
            #expect(span.attributes["server.address"]?.toSpanAttribute() == .string("127.0.0.1"))
            #expect(span.attributes["server.port"]?.toSpanAttribute() == .int64(Int64(server.port)))
            #expect(span.attributes["url.scheme"]?.toSpanAttribute() == .string("http"))
            #expect(span.attributes["url.template"]?.toSpanAttribute() == .string("/notes/{id}"))
            #expect(span.attributes["http.response.status_code"]?.toSpanAttribute() == .int64(200))
            // AsyncHTTPClient says which HTTP version answered; FoundationNetworking does not.
            #expect(span.attributes["network.protocol.version"]?.toSpanAttribute() == (transport.isURLSession ? nil : .string("1.1")))
            let url = span.attributes["url.full"]?.toSpanAttribute()
            #expect(url == .string("\(server.baseURL)/notes/42?page=2&sig=REDACTED&token=REDACTED"))
            #expect(span.attributes["http.request.resend_count"] == nil)
            #expect(span.attributes["error.type"] == nil)
            #expect(span.status == nil)
            // The span's context went out in the request's headers, through the tracer's injector.
            #expect(server.headers.first?[InMemoryTracer.traceIDKey] == span.traceID)
            #expect(server.headers.first?[InMemoryTracer.spanIDKey] == span.spanID)
        }

        @Test(
            "Each request sent is a span: a redirect hop and a retry count in http.request.resend_count, a 503 is an error",
            arguments: TransportKind.all)
        func retriesAndRedirects(transport: TransportKind) async throws {
            let server = try ObservedServer()
            let tracer = InMemoryTracer()
            let client = Self.client(transport, [RetryPolicy(random: { 0 })])
            _ = try await Self.underServerSpan(tracer) {
                _ = try await client.send(server.endpoint("/moved"), as: ObservedNote.self)
                _ = try await client.send(server.endpoint("/flaky"), as: ObservedNote.self)
            }
            let spans = Self.clientSpans(tracer)
            #expect(
                spans.map { $0.attributes["http.response.status_code"]?.toSpanAttribute() } == [
                    .int64(302), .int64(200), .int64(503), .int64(200),
                ])
            #expect(spans.map { $0.attributes["http.request.resend_count"]?.toSpanAttribute() } == [nil, .int64(1), nil, .int64(1)])
            #expect(
                spans.map { $0.attributes["url.full"]?.toSpanAttribute() } == [
                    .string("\(server.baseURL)/moved"), .string("\(server.baseURL)/notes/1"), .string("\(server.baseURL)/flaky"),
                    .string("\(server.baseURL)/flaky"),
                ])
            #expect(spans[2].attributes["error.type"]?.toSpanAttribute() == .string("503"))
            #expect(spans[2].status?.code == .error)
            #expect(spans.filter { $0.status != nil }.count == 1)
            #expect(
                Set(server.headers.compactMap { $0[InMemoryTracer.spanIDKey] }) == Set(spans.map(\.spanID)),
                "each request carried its own span")
        }

        @Test(
            "A token refresh is what it is: the 401 is an error span, the second try a span of its own with resend_count 1",
            arguments: TransportKind.all)
        func refreshIsVisible(transport: TransportKind) async throws {
            let server = try ObservedServer()
            let tracer = InMemoryTracer()
            let auth = RefreshingAuthenticator(token: "stale-token") { _ in "fresh-token" }
            let client = Self.client(transport, [auth])
            _ = try await Self.underServerSpan(tracer) { _ = try await client.send(server.endpoint("/private"), as: ObservedNote.self) }
            let spans = Self.clientSpans(tracer)
            #expect(spans.map { $0.attributes["http.response.status_code"]?.toSpanAttribute() } == [.int64(401), .int64(200)])
            #expect(spans.map { $0.attributes["http.request.resend_count"]?.toSpanAttribute() } == [nil, .int64(1)])
            #expect(spans.map { $0.status?.code } == [.error, nil])
            #expect(server.headers.map { $0["authorization"] } == ["Bearer stale-token", "Bearer fresh-token"])
        }

        @Test("A cache hit sends nothing and makes no CLIENT span: it is an event on the caller's span", arguments: TransportKind.all)
        func cacheHitIsAnEvent(transport: TransportKind) async throws {
            let server = try ObservedServer()
            let tracer = InMemoryTracer()
            let client = Self.client(transport, [HTTPCache()])
            _ = try await Self.underServerSpan(tracer) {
                _ = try await client.send(server.endpoint("/cached"), as: ObservedNote.self)
                _ = try await client.send(server.endpoint("/cached"), as: ObservedNote.self)
            }
            #expect(Self.clientSpans(tracer).count == 1)
            #expect(server.headers.count == 1)
            let handler = tracer.finishedSpans.first { $0.kind == .server }
            #expect(handler?.events.map(\.name) == ["networklayer.cache.hit"])
            #expect(handler?.events.first?.attributes["http.response.status_code"]?.toSpanAttribute() == .int64(200))
        }

        @Test("A 404 is an error span with error.type 404; a refused connection has error.type and no status", arguments: TransportKind.all)
        func failures(transport: TransportKind) async throws {
            let server = try ObservedServer()
            let closed = try ObservedServer()
            closed.server.stop()
            let tracer = InMemoryTracer()
            let client = Self.client(transport)
            await withTracer(tracer) {
                await #expect(throws: APIError.self) { try await client.send(server.endpoint("/missing"), as: ObservedNote.self) }
                await #expect(throws: APIError.self) { try await client.send(closed.endpoint("/notes/1"), as: ObservedNote.self) }
            }
            let spans = Self.clientSpans(tracer)
            try #require(spans.count == 2)
            #expect(spans[0].attributes["error.type"]?.toSpanAttribute() == .string("404"))
            #expect(spans[0].attributes["http.response.status_code"]?.toSpanAttribute() == .int64(404))
            #expect(spans[1].attributes["error.type"]?.toSpanAttribute() == .string("cannot_connect_to_host"))
            #expect(spans[1].attributes["http.response.status_code"] == nil)
            #expect(spans.allSatisfy { $0.status?.code == .error })
        }

        @Test("An unknown method is _OTHER, with the method as sent beside it, and the span is named HTTP")
        func unknownMethod() async throws {
            let server = try ObservedServer()
            let tracer = InMemoryTracer()
            var endpoint = server.endpoint("/notes/1")
            endpoint.method = HTTPMethod(rawValue: "PURGE")
            _ = try await withTracer(tracer) { try await Self.client(.urlSession).response(for: endpoint) }
            let span = try #require(Self.clientSpans(tracer).first)
            #expect(span.operationName == "HTTP")
            #expect(span.attributes["http.request.method"]?.toSpanAttribute() == .string("_OTHER"))
            #expect(span.attributes["http.request.method_original"]?.toSpanAttribute() == .string("PURGE"))
        }

        @Test("No Authorization, Cookie or credential query value is in any span, and cookies still go out", arguments: TransportKind.all)
        func noSecretInSpans(transport: TransportKind) async throws {
            let server = try ObservedServer()
            let tracer = InMemoryTracer()
            let client = Self.client(transport, [BearerTokenAuthenticator(token: "secret-bearer"), CookieJar()])
            var endpoint = server.endpoint("/notes/1")
            endpoint.task = .requestParameters(urlParameters: ["access_token": "secret-query", "X-Goog-Signature": "secret-goog"])
            _ = try await Self.underServerSpan(tracer) {
                _ = try await client.send(endpoint, as: ObservedNote.self)
                _ = try await client.send(endpoint, as: ObservedNote.self)
            }
            #expect(server.headers.last?["cookie"] == "session=secret-cookie")
            #expect(server.headers.last?["authorization"] == "Bearer secret-bearer")
            let text = tracer.finishedSpans.map { span in
                "\(span.operationName) \(span.attributes) \(span.events.map { "\($0.name) \($0.attributes)" })"
            }.joined(separator: "\n")
            #expect(Self.clientSpans(tracer).count == 2)
            #expect(!text.contains("secret"), "\(text)")
        }

        @Test("A URL's userinfo is REDACTED:REDACTED in url.full", arguments: TransportKind.all)
        func userinfoIsRedacted(transport: TransportKind) async throws {
            let server = try ObservedServer()
            let tracer = InMemoryTracer()
            var endpoint = server.endpoint("/notes/1")
            endpoint.base = server.baseURL.replacingOccurrences(of: "http://", with: "http://reader:secret-password@")
            _ = try await Self.underServerSpan(tracer) { _ = try await Self.client(transport).send(endpoint, as: ObservedNote.self) }
            let url = Self.clientSpans(tracer).first?.attributes["url.full"]?.toSpanAttribute()
            #expect(url == .string(server.baseURL.replacingOccurrences(of: "http://", with: "http://REDACTED:REDACTED@") + "/notes/1"))
        }

        @Test("Every verb makes its span: a download, a stream and an upload", arguments: TransportKind.all)
        func everyVerb(transport: TransportKind) async throws {
            let server = try ObservedServer()
            let tracer = InMemoryTracer()
            let client = Self.client(transport)
            let directory = try TemporaryDirectory()
            try await withTracer(tracer) {
                _ = try await client.download(for: server.endpoint("/notes/1", template: "/notes/{id}"), to: directory.file("note.json"))
                let stream = try await client.stream(for: server.endpoint("/notes/2", template: "/notes/{id}"))
                for try await _ in stream {}
                var upload = server.endpoint("/notes/3", template: "/notes/{id}")
                upload.method = .put
                upload.task = .requestData(Data("{}".utf8), contentType: "application/json")
                _ = try await client.upload(for: upload, as: ObservedNote.self)
            }
            #expect(Self.clientSpans(tracer).map(\.operationName) == ["GET /notes/{id}", "GET /notes/{id}", "PUT /notes/{id}"])
            #expect(server.headers.allSatisfy { $0[InMemoryTracer.traceIDKey] != nil })
        }

        @Test(
            "AsyncHTTPClient's own span is off: one span a request, even with the tracer bound when the transport is made",
            arguments: TransportKind.all.filter { !$0.isURLSession })
        func noSecondSpanFromAsyncHTTPClient(transport: TransportKind) async throws {
            let server = try ObservedServer()
            let tracer = InMemoryTracer()
            try await withTracer(tracer) {
                _ = try await Self.client(transport).send(server.endpoint("/notes/1"), as: ObservedNote.self)
            }
            let spans = Self.clientSpans(tracer)
            #expect(spans.count == 1)
            #expect(spans.first?.attributes["url.path"] == nil, "AsyncHTTPClient's attributes are not ours")
        }

        @Test("With the no-op tracer nothing is traced and no header is added")
        func noOpTracerAddsNothing() async throws {
            let server = try ObservedServer()
            let client = TransportKind.urlSession.makeClient { _ in }
            _ = try await withTracer(NoOpTracer()) { try await client.send(server.endpoint("/notes/1"), as: ObservedNote.self) }
            #expect(server.headers.first?.keys.contains { $0.hasPrefix("in-memory") || $0 == "traceparent" } == false)
        }
    }
#endif
