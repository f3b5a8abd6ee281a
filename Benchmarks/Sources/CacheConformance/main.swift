import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// Runs the public HTTP cache conformance suite (github.com/http-tests/cache-tests) against
// `HTTPCache`: each test's requests go through a `NetworkClient` whose interceptors hold a cache,
// to the suite's own server, and are judged as the suite's client judges them. The suite is an
// input, never part of this repository; `scripts/cache-conformance.sh` dumps its test list, starts
// its server and runs this:
//
//   cache-conformance --tests tests.json --server http://127.0.0.1:8000 [--transport urlsession|asynchttpclient]
//                     [--without-cache] [--only id,id] [--concurrency 32] [--verbose]
//
// It prints `passed N of M browser-applicable (…)` and the browser-applicable tests not passed.

var options: [String: String] = [:]
var flags: Set<String> = []
var arguments = Array(CommandLine.arguments.dropFirst())
while let argument = arguments.first {
    arguments.removeFirst()
    if ["--without-cache", "--verbose", "--honour-dependencies"].contains(argument) {
        flags.insert(argument)
    } else if argument.hasPrefix("--"), let value = arguments.first {
        options[argument] = value
        arguments.removeFirst()
    } else {
        FileHandle.standardError.write(Data("unexpected argument \(argument)\n".utf8))
        exit(64)
    }
}
guard let testsPath = options["--tests"], let server = options["--server"] else {
    FileHandle.standardError.write(
        Data("usage: cache-conformance --tests FILE --server URL [--transport urlsession|asynchttpclient]\n".utf8))
    exit(64)
}

let transportName = options["--transport"] ?? "urlsession"
let transport: any HTTPTransport
switch transportName {
case "urlsession":
    transport = URLSessionTransport(session: URLSession(configuration: URLSessionTransport.defaultConfiguration()))
#if AHC
    case "asynchttpclient":
        transport = AsyncHTTPClientTransport()
#endif
default:
    FileHandle.standardError.write(Data("unknown transport \(transportName) (asynchttpclient needs the trait AHC)\n".utf8))
    exit(64)
}

let allTests = try SuiteTest.load(URL(fileURLWithPath: testsPath))
let only = options["--only"].map { Set($0.split(separator: ",").map(String.init)) }
let selected = allTests.filter { only?.contains($0.id) ?? true }
let concurrency = options["--concurrency"].flatMap(Int.init) ?? 32
let withCache = !flags.contains("--without-cache")
let started = Date()

let outcomes = await withTaskGroup(of: (String, TestOutcome).self) { group in
    var outcomes: [String: TestOutcome] = [:]
    var pending = selected[...]
    func startNext() {
        guard let test = pending.popFirst() else { return }
        group.addTask { (test.id, await TestRun(test: test, server: server, transport: transport, withCache: withCache).run()) }
    }
    for _ in 0..<concurrency { startNext() }
    while let (id, outcome) = await group.next() {
        outcomes[id] = outcome
        startNext()
    }
    return outcomes
}

let honoringDependencies = flags.contains("--honour-dependencies")
let byID = Dictionary(allTests.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
let applicable = selected.filter(\.isBrowserApplicable)
var counts: [Verdict: Int] = [:]
var notPassed: [(SuiteTest, Verdict)] = []
for test in applicable {
    let verdict = Verdict.of(test.id, tests: byID, outcomes: outcomes, honoringDependencies: honoringDependencies)
    counts[verdict, default: 0] += 1
    if !verdict.isPass { notPassed.append((test, verdict)) }
}
let passed = counts.filter(\.key.isPass).values.reduce(0, +)
let breakdown = counts.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.value) \($0.key.rawValue)" }.joined(separator: ", ")
print(
    "transport: \(transportName)\(withCache ? "" : ", without the cache"); \(String(format: "%.0f", Date().timeIntervalSince(started))) s")
print("passed \(passed) of \(applicable.count) browser-applicable (\(breakdown))")
for (test, verdict) in notPassed {
    var line = "  \(test.id): \(verdict.rawValue)"
    if case .failed(let kind, let message)? = outcomes[test.id] { line += " — \(kind): \(message)" }
    print(line)
}
if flags.contains("--verbose") {
    for test in selected where !test.isBrowserApplicable {
        print(
            "  (not browser-applicable) \(test.id): \(Verdict.of(test.id, tests: byID, outcomes: outcomes, honoringDependencies: honoringDependencies).rawValue)"
        )
    }
}
