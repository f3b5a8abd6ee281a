/// What a test's outcome counts as on the suite's results site (test-engine/lib/results.mjs).
enum Verdict: String, Sendable {
    case pass, fail, optionalFail = "optional fail", yes, no, setupFail = "setup fail", retry, dependencyFail = "dependency fail"

    /// Whether the site counts it as passed: a pass, or a yes to a check.
    var isPass: Bool { self == .pass || self == .yes }

    /// The verdict of `id`: a dependency that did not pass makes it a dependency failure; a setup
    /// failure is neither pass nor fail; otherwise by its kind.
    static func of(_ id: String, tests: [String: SuiteTest], outcomes: [String: TestOutcome], honoringDependencies: Bool) -> Verdict {
        guard let test = tests[id], let outcome = outcomes[id] else { return .dependencyFail }
        for dependency in test.dependsOn where honoringDependencies {
            guard Verdict.of(dependency, tests: tests, outcomes: outcomes, honoringDependencies: true).isPass else {
                return .dependencyFail
            }
        }
        if case .failed(let kind, let message) = outcome, kind == "Setup" { return message == "retry" ? .retry : .setupFail }
        let passed = if case .passed = outcome { true } else { false }
        switch test.kind {
        case "optimal": return passed ? .pass : .optionalFail
        case "check": return passed ? .yes : .no
        default: return passed ? .pass : .fail
        }
    }
}
