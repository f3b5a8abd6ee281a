import Foundation
import NetworkLayer
import OTel
import Tracing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// Usage: otel-e2e http://127.0.0.1:PORT (the receiver of scripts/otlp-receiver.py, which serves the API too).
// Exits 0 when the receiver's check passes, printing its lines.

struct Note: Decodable { let id: Int }

/// The API beside the receiver: a note, and a redirect to another.
struct NotesAPI: Endpoint {
    let base: String
    let path: String
    let template: String?
    var options: CallOptions { CallOptions(urlTemplate: template) }
}

guard CommandLine.arguments.count == 2, let receiver = URL(string: CommandLine.arguments[1]), let port = receiver.port else {
    FileHandle.standardError.write(Data("usage: otel-e2e http://127.0.0.1:PORT\n".utf8))
    exit(64)
}
let base = receiver.absoluteString

// The setup of ObservingRequests.md: swift-otel bootstraps tracing, exporting over OTLP/HTTP.
var configuration = OTel.Configuration.default
configuration.serviceName = "networklayer-e2e"
configuration.traces.otlpExporter.endpoint = base + "/v1/traces"
configuration.traces.otlpExporter.protocol = .httpProtobuf
// Exported every 100 ms rather than every 5 s, for the check below.
configuration.traces.batchSpanProcessor.scheduleDelay = .milliseconds(100)
configuration.metrics.enabled = false
configuration.logs.enabled = false
let observability = try OTel.bootstrap(configuration: configuration)
let service = Task { try await observability.run() }

let transports: [(String, any HTTPTransport)] = [
    ("URLSession", URLSessionTransport()), ("AsyncHTTPClient", AsyncHTTPClientTransport()),
]
for (name, transport) in transports {
    let client = NetworkClient(transport: transport)
    // A request handler's SERVER span, as Hummingbird or Vapor would start it.
    try await withSpan("GET /handler/\(name)", ofKind: .server) { _ in
        _ = try await client.send(NotesAPI(base: base, path: "/api/notes/7", template: "/api/notes/{id}"), as: Note.self)
        _ = try await client.send(NotesAPI(base: base, path: "/api/moved", template: nil), as: Note.self)
    }
}

// The receiver checks once the spans have arrived: up to 20 s.
let check = try URL(string: "\(base)/check?port=\(port)").orThrow()
var last = ""
for _ in 0..<100 {
    let (data, response) = try await URLSession.shared.data(from: check)
    last = String(decoding: data, as: UTF8.self)
    if (response as? HTTPURLResponse)?.statusCode == 200 {
        print(last, terminator: "")
        service.cancel()
        exit(0)
    }
    try await Task.sleep(nanoseconds: 200_000_000)
}
FileHandle.standardError.write(Data("the receiver's check failed:\n\(last)".utf8))
exit(1)

extension Optional {
    /// The value, or a thrown `URLError(.badURL)`.
    func orThrow() throws -> Wrapped {
        guard let self else { throw URLError(.badURL) }
        return self
    }
}
