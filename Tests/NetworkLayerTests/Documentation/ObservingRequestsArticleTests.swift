#if SwiftLog && SwiftMetrics && DistributedTracing
    import CoreMetrics
    import Foundation
    import InMemoryLogging
    import InMemoryTracing
    import Logging
    import MetricsTestKit
    import NetworkLayer
    import NetworkLayerTesting
    import TestSupport
    import Testing
    import Tracing

    extension ArticleTests {
        /// The snippets and tables of the article ObservingRequests.md, against what calls really report.
        @Suite("Article: Observing requests")
        struct ObservingRequestsArticleTests {
            /// The article's text.
            static func article() throws -> String {
                let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                    .deletingLastPathComponent().deletingLastPathComponent()
                return try String(
                    contentsOf: root.appendingPathComponent("Sources/NetworkLayer/NetworkLayer.docc/ObservingRequests.md"), encoding: .utf8)
            }

            /// The code-font names in the first column of the table whose header row starts with `| header |`.
            static func firstColumn(ofTable header: String) throws -> Set<String> {
                let text = try article()
                let start = try #require(text.range(of: "| \(header) |"))
                let rows = text[start.lowerBound...].split(separator: "\n").prefix { $0.hasPrefix("|") }.dropFirst(2)
                return Set(
                    rows.compactMap { row -> String? in
                        let cell = row.split(separator: "|").first?.trimmingCharacters(in: .whitespaces) ?? ""
                        guard cell.hasPrefix("`"), cell.hasSuffix("`") else { return nil }
                        return String(cell.dropFirst().dropLast())
                    })
            }

            /// The calls the tables are checked against, over every transport: a template, a redirect, a
            /// retried `503`, a `404`, an unknown method, a refused connection, a cache's hit, over the
            /// client `configure` makes.
            static func representativeCalls(_ configure: (inout ClientConfiguration) -> Void) async throws {
                for transport in TransportKind.allCases {
                    try await representativeCalls(over: transport, configure)
                }
            }

            private static func representativeCalls(
                over transport: TransportKind, _ configure: (inout ClientConfiguration) -> Void
            ) async throws {
                let server = try ObservedServer()
                let closed = try ObservedServer()
                closed.server.stop()
                let client = transport.makeClient {
                    $0.interceptors = [HTTPCache(), RetryPolicy(random: { 0 })]
                    configure(&$0)
                }
                _ = try await client.send(server.endpoint("/notes/3", template: "/notes/{id}"), as: ObservedNote.self)
                _ = try await client.send(server.endpoint("/moved"), as: ObservedNote.self)
                _ = try await client.send(server.endpoint("/flaky"), as: ObservedNote.self)
                _ = try await client.send(server.endpoint("/cached"), as: ObservedNote.self)
                _ = try await client.send(server.endpoint("/cached"), as: ObservedNote.self)
                var purge = server.endpoint("/notes/1")
                purge.method = HTTPMethod(rawValue: "PURGE")
                _ = try await client.response(for: purge)
                _ = await client.fetch(server.endpoint("/missing"), as: ObservedNote.self)
                _ = await client.fetch(closed.endpoint("/notes/1"), as: ObservedNote.self)
            }

            @Test("The span table names every attribute the spans carry, and no other")
            func spanTable() async throws {
                let tracer = InMemoryTracer()
                let parent = tracer.startSpan("handler", context: .topLevel, ofKind: .server)
                try await withTracer(tracer) {
                    try await ServiceContext.withValue(parent.context) { try await Self.representativeCalls { _ in } }
                }
                parent.end()
                var carried = Set<String>()
                for span in tracer.finishedSpans where span.kind == .client {
                    span.attributes.forEach { name, _ in carried.insert(name) }
                }
                let table = try Self.firstColumn(ofTable: "Attribute")
                #expect(table == carried, "named but not carried, or carried but not named: \(table.symmetricDifference(carried))")
                let events = tracer.finishedSpans.flatMap(\.events).map(\.name)
                #expect(Set(events) == ["networklayer.cache.hit"])
                #expect(try Self.article().contains("`networklayer.cache.hit`"))
            }

            @Test("The metrics table names every metric recorded, and no other")
            func metricsTable() async throws {
                let metrics = TestMetrics()
                try await withMetricsFactory(metrics) { try await Self.representativeCalls { _ in } }
                let recorded = Set(
                    metrics.timers.map(\.label) + metrics.meters.map(\.label) + metrics.recorders.map(\.label))
                let table = try Self.firstColumn(ofTable: "Metric")
                #expect(table == recorded, "named but not recorded, or recorded but not named: \(table.symmetricDifference(recorded))")
            }

            @Test("The log table names every message, and its levels are trace and debug")
            func logTable() async throws {
                let handler = InMemoryLogHandler()
                var logger = Logger(label: "notes.api") { _ in handler }
                logger.logLevel = .trace
                try await Self.representativeCalls { $0.logger = logger }
                let text = try Self.article()
                let messages = Set(handler.entries.map(\.message.description))
                #expect(messages.allSatisfy { text.contains("`\($0)`") }, "\(messages)")
                #expect(Set(handler.entries.map(\.level)) == [.trace, .debug])
                let keys = Set(handler.entries.flatMap(\.metadata.keys))
                #expect(keys.allSatisfy { text.contains("`\($0)`") }, "\(keys.filter { !text.contains("`\($0)`") })")
            }

            @Test("The swift-otel setup and the manifest's traits are the end-to-end test's, which the test command runs")
            func setupIsTheEndToEndTests() throws {
                let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                    .deletingLastPathComponent().deletingLastPathComponent()
                let program = try String(
                    contentsOf: root.appendingPathComponent("Tests/OTelEndToEnd/Sources/otel-e2e/main.swift"), encoding: .utf8)
                let manifest = try String(contentsOf: root.appendingPathComponent("Tests/OTelEndToEnd/Package.swift"), encoding: .utf8)
                let text = try Self.article()
                let start = try #require(text.range(of: "import OTel\n"))
                let end = try #require(text.range(of: "```", range: start.upperBound..<text.endIndex))
                // Each line of the setup, up to its value where the service names itself differently.
                let lines = text[start.lowerBound..<end.lowerBound].split(separator: "\n").map { line in
                    line.hasPrefix("configuration.serviceName") ? "configuration.serviceName = " : String(line)
                }
                let missing = lines.filter { !$0.hasPrefix("//") && !program.contains($0) }
                #expect(lines.count >= 5)
                #expect(missing == [], "lines of the article's setup that Tests/OTelEndToEnd does not run")
                #expect(text.contains(#"traits: ["AsyncHTTPClient", "SwiftLog", "SwiftMetrics", "DistributedTracing"]"#))
                #expect(manifest.contains(#"traits: ["AsyncHTTPClient", "SwiftLog", "SwiftMetrics", "DistributedTracing"]"#))
            }

            /// The article's endpoint: its route templates in its options.
            enum NotesAPI: Endpoint {
                case note(id: Int), notes
                var base: String { "https://api.example.com" }
                var path: String {
                    switch self {
                    case .note(let id): "/notes/\(id)"
                    case .notes: "/notes"
                    }
                }
                var options: CallOptions {
                    switch self {
                    case .note: CallOptions(urlTemplate: "/notes/{id}")
                    case .notes: CallOptions(urlTemplate: "/notes")
                    }
                }
            }

            @Test("A client's logger, a call's own logger from a request handler, and an endpoint's template")
            func samples() async throws {
                let clientLines = InMemoryLogHandler()
                let handlerLines = InMemoryLogHandler()
                let stubs = StubSession()
                stubs.register(.get, "/notes/42", .json(#"{"id":42}"#))
                let client = NetworkClient(transport: URLSessionTransport(session: stubs.session)) {
                    $0.logger = Logger(label: "notes.api") { _ in clientLines }
                    $0.logger?.logLevel = .debug
                }
                var handlerLogger = Logger(label: "handler") { _ in handlerLines }
                handlerLogger.logLevel = .debug
                handlerLogger[metadataKey: "request.id"] = "r-1"
                let context = (logger: handlerLogger, ())

                // In a request handler: the call's lines carry the handler's metadata.
                var call = Request(NotesAPI.note(id: 42), as: ObservedNote.self)
                call.options.logger = context.logger
                let note = try await client.send(call)

                #expect(note.id == 42)
                #expect(clientLines.entries.isEmpty)
                #expect(handlerLines.entries.map(\.message.description) == ["request finished"])
                #expect(handlerLines.entries.first?.metadata["request.id"] == "r-1")
                #expect(NotesAPI.note(id: 42).options.urlTemplate == "/notes/{id}")
            }
        }
    }
#endif
