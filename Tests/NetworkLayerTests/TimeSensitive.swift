import Testing

/// Runs a test at high priority, for a test that measures time: deadlines, timeouts, retry waits, a
/// request that must reach a server before something else happens.
///
/// The run starts every test at once. For its first seconds every medium-priority continuation
/// waits behind the first steps of hundreds of other tests (2.2 s measured on two cores, more on a
/// slower machine), and a test of timing would read that wait as the library being late. A
/// high-priority task is not queued behind them, so the test measures the library, not the run.
struct TimeSensitive: SuiteTrait, TestTrait, TestScoping {
    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withoutActuallyEscaping(function) { function in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask(priority: .high) { try await function() }
                try await group.waitForAll()
            }
        }
    }
}

extension Trait where Self == TimeSensitive {
    /// Runs the test, or every test of the suite, at high priority (see ``TimeSensitive``).
    static var timeSensitive: Self { TimeSensitive() }
}
