import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How one test ended, as the suite's client records it.
enum TestOutcome: Sendable {
    case passed
    /// `kind` is `Setup` (the test could not check what it is about), `Assertion`, or `Harness`.
    case failed(kind: String, message: String)
}

/// A failed check: a setup one makes the test unusable rather than failed.
private struct CheckFailure: Error {
    let isSetup: Bool
    let message: String
}

/// Fails unless `condition`, as the suite's `assert(isSetup, expr, message)`.
private func check(_ isSetup: Bool, _ condition: Bool, _ message: @autoclosure () -> String) throws(CheckFailure) {
    if !condition { throw CheckFailure(isSetup: isSetup, message: message()) }
}

/// Runs one test the way the suite's client does (test-engine/client/test.mjs): puts its
/// configuration to the server under a fresh uuid, sends its requests in order (an `async` one without
/// waiting for its answer) through a client whose interceptors hold an `HTTPCache` (pausing 3 s after
/// each with `pause_after`), checks each response, then checks what the server saw.
struct TestRun {
    let test: SuiteTest
    /// The suite's server, `http://127.0.0.1:PORT`.
    let server: String
    let transport: any HTTPTransport
    /// Whether the client has the cache: `false` measures a client without one.
    let withCache: Bool
    let uuid = UUID().uuidString.lowercased()

    func run() async -> TestOutcome {
        let statuses = Set(100..<1000)
        let plain = NetworkClient(
            transport: transport, configuration: ClientConfiguration(acceptableStatusCodes: statuses, redirectPolicy: .doNotFollow))
        let client = NetworkClient(
            transport: transport,
            configuration: ClientConfiguration(
                acceptableStatusCodes: statuses, interceptors: withCache ? [HTTPCache()] : [],
                redirectPolicy: .doNotFollow))
        do {
            try await putConfiguration(plain)
        } catch {
            return .failed(kind: "Setup", message: "PUT config failed: \(error)")
        }
        var responses: [HTTPResponse?] = Array(repeating: nil, count: test.requests.count)
        // An `async` request is sent without waiting for its answer, as the suite's client does, so
        // that the next one is in flight with it (a cache may collapse them); its answer is checked
        // after the others.
        var inFlight: [(index: Int, task: Task<HTTPResponse, any Error>)] = []
        do {
            for (index, configuration) in test.requests.enumerated() {
                let previous = index > 0 && test.requests[index - 1]["async"] == nil ? responses[index - 1] : nil
                if configuration["async"] != nil {
                    let task = Task { try await send(configuration, number: index + 1, previous: previous, client: client) }
                    inFlight.append((index, task))
                    // A head start, so that it reaches the server first as the suite's does (a fetch
                    // goes out when it is called; a task may start after the next request).
                    try await Task.sleep(for: .milliseconds(200))
                    continue
                }
                let response = try await send(configuration, number: index + 1, previous: previous, client: client)
                responses[index] = response
                try checkResponse(configuration, number: index + 1, response)
                if configuration["pause_after"] != nil { try await Task.sleep(for: .seconds(3)) }
            }
            for (index, task) in inFlight {
                let response = try await task.value
                responses[index] = response
                try checkResponse(test.requests[index], number: index + 1, response)
            }
            let state = try await serverState(plain)
            try checkServerRequests(responses.compactMap { $0 }, state)
            return .passed
        } catch let failure as CheckFailure {
            return .failed(kind: failure.isSetup ? "Setup" : "Assertion", message: failure.message)
        } catch {
            return .failed(kind: "Harness", message: "\(error)")
        }
    }

    private func putConfiguration(_ client: NetworkClient) async throws {
        let body = try JSONEncoder().encode(JSONValue.array(test.requests))
        let request = Request<Data>(
            base: "\(server)/config/\(uuid)", path: "", method: .put,
            task: .requestData(body, contentType: "application/json"))
        let response = try await client.response(for: request, as: Data.self)
        guard response.statusCode == 201 else { throw RunnerError("PUT config answered \(response.statusCode)") }
    }

    private func serverState(_ client: NetworkClient) async throws -> [JSONValue] {
        let response = try await client.response(for: Request<Data>(base: "\(server)/state/\(uuid)", path: ""), as: Data.self)
        guard response.statusCode == 200 else { return [] }
        return try JSONDecoder().decode(JSONValue.self, from: response.value).array ?? []
    }

    /// Sends request `number` as the suite's `fetching.init` builds it, with a browser's cache in
    /// front (so without the suite's `Pragma`/`Cache-Control` hack for proxies): `cache: 'no-cache'`
    /// adds `Cache-Control: max-age=0`, as Fetch does.
    private func send(_ configuration: JSONValue, number: Int, previous: HTTPResponse?, client: NetworkClient) async throws
        -> HTTPResponse
    {
        var url = "\(server)/test/\(uuid)"
        if let filename = configuration["filename"]?.string { url += "/\(filename)" }
        if let query = configuration["query_arg"]?.string { url += "?\(query)" }
        var fields: [(name: String, value: String)] = []
        for header in configuration["request_headers"]?.array ?? [] {
            guard let pair = header.array, pair.count >= 2, let name = pair[0].string else { continue }
            var value = pair[1].text
            if configuration["magic_ims"]?.bool == true, name.lowercased() == "if-modified-since", let delta = pair[1].number {
                value = Self.httpDate(serverNow: previous?.headers["Server-Now"], delta: delta)
            }
            // Fetch combines a repeated name into one field.
            if let index = fields.firstIndex(where: { $0.name.lowercased() == name.lowercased() }) {
                fields[index].value += ", " + value
            } else {
                fields.append((name, value))
            }
        }
        if configuration["cache"]?.string == "no-cache", !fields.contains(where: { $0.name.lowercased() == "cache-control" }) {
            fields.append(("Cache-Control", "max-age=0"))
        }
        if let name = configuration["name"]?.string { fields.append(("Test-Name", name)) }
        fields.append(("Test-ID", test.id))
        fields.append(("Req-Num", String(number)))
        var headers = HTTPHeaders()
        for field in fields { headers.add(HTTPHeader(name: field.name, value: field.value)) }
        let method = HTTPMethod(rawValue: configuration["request_method"]?.string ?? "GET")
        let task: HTTPTask =
            configuration["request_body"]?.string.map { .requestData(Data($0.utf8), contentType: "text/plain;charset=UTF-8") }
            ?? .request
        let request = Request<Data>(base: url, path: "", method: method, headers: headers, task: task, options: CallOptions(timeout: 20))
        return try await client.response(for: request, as: Data.self).response
    }

    /// `checkResponse` of the suite's client.
    private func checkResponse(_ configuration: JSONValue, number: Int, _ response: HTTPResponse) throws(CheckFailure) {
        let isSetup = { (member: String) in Self.isSetup(configuration, member) }
        let serverCount = response.headers["Server-Request-Count"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        if let numbers = response.headers["Request-Numbers"] {
            let list = numbers.split(separator: " ")
            try check(true, list.count == Set(list).count, "retry")
        }
        switch configuration["expected_type"]?.string {
        case "cached":
            if !(response.statusCode == 304 && serverCount == nil) {
                try check(isSetup("expected_type"), (serverCount ?? .max) < number, "Response \(number) does not come from cache")
            }
        case "not_cached":
            try check(isSetup("expected_type"), serverCount == number, "Response \(number) comes from cache")
        case "collapsed":
            try check(isSetup("expected_type"), serverCount == 1, "Request \(number) was not collapsed")
        default: break
        }
        if let expected = configuration["expected_status"] {
            if let status = expected.number {
                try check(
                    isSetup("expected_status"), response.statusCode == Int(status),
                    "Response \(number) status is \(response.statusCode), not \(Int(status))")
            }
        } else if let status = configuration["response_status"]?.array?.first?.number {
            try check(true, response.statusCode == Int(status), "Response \(number) status is \(response.statusCode), not \(Int(status))")
        } else if response.statusCode == 999 {
            try check(isSetup("expected_type"), false, "Request \(number) should have been conditional, but it was not.")
        } else {
            try check(true, response.statusCode == 200, "Response \(number) status is \(response.statusCode), not 200")
        }
        for header in configuration["expected_response_headers"]?.array ?? [] {
            let setup = isSetup("expected_response_headers")
            if let name = header.string {
                try check(setup, response.headers[name] != nil, "Response \(number) \(name) header not present.")
                continue
            }
            guard let parts = header.array, parts.count >= 2, let name = parts[0].string else { continue }
            let value = response.headers[name]
            if parts.count > 2 {
                try check(setup, value != nil, "Response \(number) \(name) header not present.")
                if parts[1].string == ">", let bound = parts[2].number {
                    let parsed = value.flatMap { Self.parseInt($0) }
                    try check(
                        setup, parsed.map { Double($0) > bound } ?? false,
                        "Response \(number) header \(name) is \(value ?? "null"), should be bigger than \(bound)")
                } else if parts[1].string == "=", let other = parts[2].string {
                    try check(setup, value == response.headers[other], "Response \(number) header \(name) should match \(other)")
                }
            } else {
                let expected = Self.fixup(name: name, value: parts[1], response: response, configuration: configuration)
                try check(setup, value == expected, "Response \(number) header \(name) is \"\(value ?? "null")\", not \"\(expected)\"")
            }
        }
        for header in configuration["expected_response_headers_missing"]?.array ?? [] {
            // The suite's client checks only the bare-name form (its `[name, value]` form reads a
            // property a Fetch `Headers` does not have, so never fails).
            guard let name = header.string else { continue }
            try check(
                isSetup("expected_response_headers_missing"), response.headers[name] == nil,
                "Response \(number) includes unexpected header \(name): \"\(response.headers[name] ?? "")\"")
        }
        let body = String(decoding: response.body, as: UTF8.self)
        if configuration["check_body"]?.bool == false { return }
        if let expected = configuration["expected_response_text"] {
            if let text = expected.string {
                try check(isSetup("expected_response_text"), body == text, "Response body is \"\(body)\", not \"\(text)\"")
            }
        } else if let expected = configuration["response_body"], expected != .null {
            try check(true, body == expected.text, "Response body is \"\(body)\", not \"\(expected.text)\"")
        } else if ![204, 304].contains(response.statusCode), configuration["request_method"]?.string != "HEAD" {
            try check(true, body == uuid, "Response body is \"\(body)\", not \"\(uuid)\"")
        }
    }

    /// `checkServerRequests` of the suite's client: what the server saw against what was asked.
    private func checkServerRequests(_ responses: [HTTPResponse], _ state: [JSONValue]) throws(CheckFailure) {
        var stateIndex = 0
        for (index, configuration) in test.requests.enumerated() {
            let number = index + 1
            let response = responses[index]
            let seen: JSONValue? = stateIndex < state.count ? state[stateIndex] : nil
            let typeSetup = Self.isSetup(configuration, "expected_type")
            var validators: [String] = []
            switch configuration["expected_type"]?.string {
            case "cached": continue
            case "not_cached":
                try check(
                    typeSetup, seen?["request_num"]?.number == Double(number),
                    "Response \(number) comes from cache (\(seen?["request_num"]?.text ?? "none") on server)")
            case "etag_validated": validators.append("if-none-match")
            case "lm_validated": validators.append("if-modified-since")
            default: break
            }
            stateIndex += 1
            let requestHeaders = seen?["request_headers"]
            for name in validators {
                try check(typeSetup, seen != nil, "request \(number) wasn't sent to server")
                try check(typeSetup, requestHeaders?[name] != nil, "request \(number) doesn't have \(name) header")
            }
            for header in configuration["expected_request_headers"]?.array ?? [] {
                let setup = Self.isSetup(configuration, "expected_request_headers")
                if let name = header.string {
                    try check(setup, requestHeaders?[name.lowercased()] != nil, "Request \(number) \(name) header not present.")
                } else if let parts = header.array, parts.count >= 2, let name = parts[0].string {
                    let value = requestHeaders?[name.lowercased()]?.string
                    try check(
                        setup, value == parts[1].text,
                        "Request \(number) header \(name) is \"\(value ?? "undefined")\", not \"\(parts[1].text)\"")
                }
            }
            for header in configuration["expected_request_headers_missing"]?.array ?? [] {
                let setup = Self.isSetup(configuration, "expected_request_headers_missing")
                if let name = header.string {
                    try check(setup, requestHeaders?[name.lowercased()] == nil, "Request \(number) \(name) header present.")
                } else if let parts = header.array, parts.count >= 2, let name = parts[0].string {
                    try check(
                        setup, requestHeaders?[name.lowercased()]?.string != parts[1].text, "Request \(number) header \(name) present")
                }
            }
            for header in seen?["response_headers"]?.array ?? [] {
                guard let parts = header.array, parts.count >= 2, let name = parts[0].string else { continue }
                // A browser cannot read these through Fetch, and Date only makes spurious failures.
                if ["set-cookie", "set-cookie2", "date"].contains(name.lowercased()) { continue }
                let sent = parts[1].array.map { $0.map(\.text).joined(separator: ", ") } ?? parts[1].text
                let received = response.headers[name]
                try check(true, received == sent, "Response \(number) header \(name) is \"\(received ?? "null")\", not \"\(sent)\"")
            }
            if let method = configuration["expected_method"]?.string {
                try check(
                    Self.isSetup(configuration, "expected_method"), seen?["request_method"]?.string == method,
                    "Request \(number) had method \(seen?["request_method"]?.text ?? "none"), not \(method)")
            }
        }
    }

    /// `setupCheck` of the suite's client: a check is a setup one for a `setup` request or one naming it in `setup_tests`.
    private static func isSetup(_ configuration: JSONValue, _ member: String) -> Bool {
        configuration["setup"]?.bool == true || (configuration["setup_tests"]?.array ?? []).contains(.string(member))
    }

    /// JavaScript's `parseInt`: the leading integer of `text`, if any.
    private static func parseInt(_ text: String) -> Int? {
        let trimmed = text.drop(while: { $0 == " " })
        let sign = trimmed.first == "-" ? "-" : ""
        let digits = trimmed.dropFirst(sign.isEmpty ? 0 : 1).prefix(while: \.isNumber)
        return Int(sign + digits)
    }

    /// The suite's `fixupHeader` for an expected response header: a date given as seconds from
    /// the response's `Server-Now`, a location under the server's base URL.
    private static func fixup(name: String, value: JSONValue, response: HTTPResponse, configuration: JSONValue) -> String {
        let lowercased = name.lowercased()
        if ["date", "expires", "last-modified", "if-modified-since", "if-unmodified-since"].contains(lowercased),
            let delta = value.number, delta == delta.rounded()
        {
            return httpDate(serverNow: response.headers["Server-Now"], delta: delta)
        }
        if ["location", "content-location"].contains(lowercased), configuration["magic_locations"]?.bool == true {
            let base = response.headers["Server-Base-Url"] ?? ""
            return value.text.isEmpty ? base : "\(base)/\(value.text)"
        }
        return value.text
    }

    /// An IMF-fixdate `delta` seconds from `serverNow` (milliseconds since 1970), as JavaScript's `toGMTString`.
    static func httpDate(serverNow: String?, delta: Double) -> String {
        let milliseconds = serverNow.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) } ?? Date().timeIntervalSince1970 * 1000
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: Date(timeIntervalSince1970: (milliseconds / 1000).rounded(.down) + delta))
    }
}
