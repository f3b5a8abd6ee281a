import Foundation

/// One test of the suite, as its test list gives it.
struct SuiteTest: Sendable {
    /// The test's id, unique in the suite.
    let id: String
    /// `required` (also when absent), `optimal` or `check`.
    let kind: String
    /// The tests that must pass (or answer yes) for this one to count.
    let dependsOn: [String]
    /// Whether a browser's cache is tested by it: neither `cdn_only` nor `browser_skip`.
    let isBrowserApplicable: Bool
    /// Its requests, each the suite's configuration object with the test's `id` and `name` added.
    let requests: [JSONValue]

    init(_ value: JSONValue) throws {
        guard let id = value["id"]?.string, let requests = value["requests"]?.array else {
            throw RunnerError("a test without an id or requests")
        }
        self.id = id
        kind = value["kind"]?.string ?? "required"
        dependsOn = value["depends_on"]?.array?.compactMap(\.string) ?? []
        isBrowserApplicable = value["cdn_only"]?.bool != true && value["browser_skip"]?.bool != true
        self.requests = requests.map { request in
            guard case .object(var object) = request else { return request }
            object["id"] = .string(id)
            object["name"] = value["name"] ?? .string(id)
            return .object(object)
        }
    }

    /// Reads the test list the suite's `tests/index.mjs` dumps as JSON (see `scripts/cache-conformance.sh`).
    static func load(_ file: URL) throws -> [SuiteTest] {
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: file))
        guard let tests = value.array else { throw RunnerError("\(file.path) is not a list of tests") }
        return try tests.map(SuiteTest.init)
    }
}

/// Why the runner could not run.
struct RunnerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
