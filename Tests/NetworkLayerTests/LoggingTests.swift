import Foundation
import NetworkLayer
import NetworkLayerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Redaction and cURL")
struct CURLDescriptionTests {
    static func request(_ url: String, method: String = "GET", headers: [String: String] = [:], body: Data? = nil) throws -> URLRequest {
        var request = URLRequest(url: try #require(URL(string: url)))
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        return request
    }

    @Test("A GET is curl and the quoted URL")
    func get() throws {
        let request = try Self.request("https://api.example.com/items?page=2")
        #expect(request.cURLDescription() == "curl 'https://api.example.com/items?page=2'")
    }

    @Test("Method, headers sorted by name and body, one argument per line, single quotes escaped")
    func post() throws {
        let request = try Self.request(
            "https://api.example.com/items", method: "POST",
            headers: ["X-Name": "O'Brien", "Content-Type": "application/json"], body: Data(#"{"name":"Bob's"}"#.utf8))
        #expect(
            request.cURLDescription() == """
                curl -X POST 'https://api.example.com/items' \\
                  -H 'Content-Type: application/json' \\
                  -H 'X-Name: O'\\''Brien' \\
                  --data-binary '{"name":"Bob'\\''s"}'
                """)
    }

    @Test("HEAD uses --head, and a binary body is described rather than pasted")
    func headAndBinary() throws {
        #expect(try Self.request("https://a.example/x", method: "HEAD").cURLDescription() == "curl --head 'https://a.example/x'")
        let binary = try Self.request("https://a.example/x", method: "PUT", body: Data([0xFF, 0xFE, 0x00]))
        #expect(binary.cURLDescription().hasSuffix("--data-binary '<3 bytes of binary data>'"))
    }

    @Test("Redaction hides credential headers and query values, and nothing else")
    func redacted() throws {
        let request = try Self.request(
            "https://api.example.com/items?api_key=s3cr3t&page=1&Token%5B%5D=a&tokens=b#api_key=frag",
            headers: ["Authorization": "Bearer abc", "Cookie": "session=1", "Accept": "application/json"])
        let text = request.cURLDescription(redacting: .default)
        #expect(
            text == """
                curl 'https://api.example.com/items?api_key=<redacted>&page=1&Token%5B%5D=<redacted>&tokens=b#api_key=frag' \\
                  -H 'Accept: application/json' \\
                  -H 'Authorization: <redacted>' \\
                  -H 'Cookie: <redacted>'
                """)
        let custom = Redaction(headers: ["x-secret"], queryItems: ["SIG"])
        let signed = try Self.request("https://a.example/x?sig=1&api_key=2", headers: ["X-Secret": "v", "Authorization": "w"])
        #expect(
            signed.cURLDescription(redacting: custom)
                == "curl 'https://a.example/x?sig=<redacted>&api_key=2' \\\n  -H 'Authorization: w' \\\n  -H 'X-Secret: <redacted>'")
    }

    @Test("cURLDescription redacts credentials by default: the Authorization header, cookies and ?token= values")
    func redactsByDefault() throws {
        let request = try Self.request(
            "https://api.example.com/items?token=s3cr3t&page=1",
            headers: ["Authorization": "Bearer abc", "Cookie": "session=1", "Accept": "application/json"])
        let text = request.cURLDescription()
        #expect(text == request.cURLDescription(redacting: .default))
        #expect(!text.contains("s3cr3t") && !text.contains("Bearer abc") && !text.contains("session=1"))
        #expect(
            text == """
                curl 'https://api.example.com/items?token=<redacted>&page=1' \\
                  -H 'Accept: application/json' \\
                  -H 'Authorization: <redacted>' \\
                  -H 'Cookie: <redacted>'
                """)
    }

    @Test("The default redaction hides a URL's userinfo and OpenTelemetry's signed-URL parameters too")
    func redactsUserinfoAndSignatures() throws {
        let request = try Self.request(
            "https://user:pa55@files.example.com/a?AWSAccessKeyId=AK&Signature=S1&sig=S2&X-Goog-Signature=S3&Expires=9")
        #expect(
            request.cURLDescription()
                == "curl 'https://<redacted>@files.example.com/a?AWSAccessKeyId=<redacted>&Signature=<redacted>&sig=<redacted>"
                + "&X-Goog-Signature=<redacted>&Expires=9'")
        #expect(request.cURLDescription(redacting: Redaction(headers: [])).contains("user:pa55@"), "userinfo goes with Authorization")
        #expect(request.cURLDescription(redacting: .disabled).contains("user:pa55@files.example.com/a?AWSAccessKeyId=AK"))
    }

    @Test("The full text, secrets included, takes an explicit cURLDescription(redacting: .disabled)")
    func fullTextOptIn() throws {
        let request = try Self.request(
            "https://api.example.com/items?token=s3cr3t", headers: ["Authorization": "Bearer abc", "Cookie": "session=1"])
        #expect(
            request.cURLDescription(redacting: .disabled) == """
                curl 'https://api.example.com/items?token=s3cr3t' \\
                  -H 'Authorization: Bearer abc' \\
                  -H 'Cookie: session=1'
                """)
    }

    @Test("A POSIX shell reads every quoted argument back exactly")
    func shellRoundTrip() throws {
        let tricky = #"it's "quoted" $HOME `id` \n \ ' '' end"#
        let request = try Self.request(
            "https://a.example/x?q=1", method: "PATCH", headers: ["X-Tricky": tricky], body: Data((tricky + "\nline 2").utf8))
        // A shell function named curl prints each argument it gets on its own line, NUL-terminated.
        let script = "curl() { printf '%s\\0' \"$@\"; }\n" + request.cURLDescription()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let arguments = String(decoding: data, as: UTF8.self).split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(
            String.init)
        #expect(arguments == ["-X", "PATCH", "https://a.example/x?q=1", "-H", "X-Tricky: \(tricky)", "--data-binary", tricky + "\nline 2"])
    }
}

@Suite("NetworkLogger")
struct NetworkLoggerTests {
    /// A logger at `level` whose messages are collected.
    static func logger(_ level: NetworkLogger.Level, bodyLimit: Int = 1024) -> (NetworkLogger, LockedArray<String>) {
        let lines = LockedArray<String>()
        return (NetworkLogger(level: level, bodyLimit: bodyLimit) { lines.append($0) }, lines)
    }

    @Test("Info: one line per attempt with method, redacted URL, status, duration and sizes")
    func infoLine() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/items", .json(#"{"id":1,"title":"A"}"#))
        let (logger, lines) = Self.logger(.info)
        let endpoint = TestEndpoint(task: .requestParameters(urlParameters: ["api_key": "s3cr3t", "page": 1]))
        _ = try await client(stubs, [logger]).send(endpoint, as: Movie.self)
        let line = try #require(lines.elements.first)
        #expect(lines.count == 1)
        #expect(line.hasPrefix("GET https://api.example.com/items?api_key=<redacted>&page=1 → 200 OK, "))
        let parts = line.components(separatedBy: ", ")
        #expect(parts.count == 4)
        #expect(parts.dropFirst(2) == ["sent 0 B", "received 20 B"])
        #expect(parts[1].hasSuffix(" ms") || parts[1].hasSuffix(" s"), "a duration: \(parts[1])")
        #expect(!line.contains("s3cr3t"))
    }

    @Test("Info: retries say so, and a summary follows the last attempt")
    func retries() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/items", .status(503))
        stubs.register(.get, "/items", .failure(URLError(.timedOut)))
        let (logger, lines) = Self.logger(.info)
        let retrier = ScriptedRetrier { _, context in context.attempt == 1 ? .retryAfter(0.001) : .doNotRetry }
        _ = await client(stubs, [retrier, logger]).fetch(TestEndpoint(), as: Empty.self)
        let messages = lines.elements
        #expect(messages.count == 3)
        #expect(messages[0].hasPrefix("GET https://api.example.com/items → 503 Service Unavailable, "))
        #expect(messages[0].hasSuffix("; retrying in 1 ms"))
        #expect(
            messages[1].hasPrefix(
                "GET https://api.example.com/items → The request timed out: nothing was sent or received for its idle timeout, "))
        #expect(messages[1].hasSuffix(" (attempt 2)"))
        #expect(messages[2].hasPrefix("GET https://api.example.com/items failed after 2 attempts in "))
        #expect(messages[2].hasSuffix(": The request timed out: nothing was sent or received for its idle timeout"))
    }

    @Test("Debug: headers and the start of each body, with credentials redacted in both directions")
    func debugDetails() async throws {
        let stubs = StubSession()
        stubs.register(
            .post, "/items",
            StubResponse(statusCode: 201, headers: ["Set-Cookie": "session=abc", "Content-Type": "text/plain"], body: Data("created".utf8)))
        let (logger, lines) = Self.logger(.debug)
        let endpoint = TestEndpoint(
            method: .post, headers: ["Cookie": "theme=dark", "Accept": "text/plain"],
            task: .requestData(Data("hello".utf8), contentType: "text/plain"))
        _ = try await client(stubs, [BearerTokenAuthenticator(token: "t0k3n"), logger]).send(endpoint, as: Empty.self)
        let message = try #require(lines.elements.first)
        let detail = message.split(separator: "\n").dropFirst().map(String.init)
        #expect(
            detail == [
                "> Accept: text/plain",
                "> Authorization: <redacted>",
                "> Content-Type: text/plain",
                "> Cookie: <redacted>",
                "> hello",
                "< Content-Type: text/plain",
                "< Set-Cookie: <redacted>",
                "< created",
            ])
        #expect(!message.contains("t0k3n") && !message.contains("abc") && !message.contains("dark"))
    }

    @Test("Debug: bodies are cut at bodyLimit, binary bodies are described, and 0 writes none")
    func bodies() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/text", .text(String(repeating: "é", count: 10)))
        stubs.register(.get, "/binary", StubResponse(body: Data([0xFF, 0x00, 0xFE])))
        let (logger, lines) = Self.logger(.debug, bodyLimit: 5)
        let client = client(stubs, [logger])
        _ = try await client.send(TestEndpoint(path: "/text"), as: Empty.self)
        _ = try await client.send(TestEndpoint(path: "/binary"), as: Empty.self)
        #expect(lines.elements[0].hasSuffix("\n< éé… (20 B in all)"))
        #expect(lines.elements[1].hasSuffix("\n< <3 B of binary data>"))

        let (quiet, quietLines) = Self.logger(.debug, bodyLimit: 0)
        _ = try await NetworkLayerTests.client(stubs, [quiet]).send(TestEndpoint(path: "/text"), as: Empty.self)
        #expect(!quietLines.elements[0].contains("é"))
    }

    @Test("Error: only requests that finally failed, one line each")
    func errorLevel() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/ok", .status(204))
        stubs.register(.get, "/missing", .status(404))
        let (logger, lines) = Self.logger(.error)
        let client = client(stubs, [logger])
        _ = await client.fetch(TestEndpoint(path: "/ok"), as: Empty.self)
        _ = await client.fetch(TestEndpoint(path: "/missing"), as: Empty.self)
        #expect(lines.count == 1)
        #expect(lines.elements.first?.hasPrefix("GET https://api.example.com/missing failed after 1 attempt in ") == true)
        #expect(lines.elements.first?.hasSuffix(": The server answered 404 Not Found") == true)
    }

    @Test(
        "Bodies appear at debug level only: an error's body is not in error or info messages, nor past bodyLimit",
        arguments: [(NetworkLogger.Level.error, 1024), (.info, 1024), (.debug, 0)])
    func noBodyBelowDebug(level: NetworkLogger.Level, bodyLimit: Int) async throws {
        let stubs = StubSession()
        stubs.register(.get, "/fails", .text("password=hunter2", statusCode: 500))
        stubs.register(.get, "/fails", .text("password=hunter2", statusCode: 500))
        let (logger, lines) = Self.logger(level, bodyLimit: bodyLimit)
        let retryOnce = ScriptedRetrier { _, context in context.attempt == 1 ? .retry : .doNotRetry }
        let result = await client(stubs, [retryOnce, logger]).fetch(TestEndpoint(path: "/fails"), as: Empty.self)
        #expect(result.failure?.description.contains("hunter2") == true, "the error itself still carries the preview")
        #expect(!lines.elements.isEmpty)
        #expect(lines.elements.allSatisfy { !$0.contains("hunter2") }, "\(lines.elements)")
        #expect(lines.elements.contains { $0.contains("The server answered 500 Internal Server Error") })
    }
}
