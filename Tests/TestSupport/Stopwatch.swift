import Dispatch

/// Elapsed time on a monotonic clock, in seconds: `ContinuousClock` would do, but needs macOS 13 /
/// iOS 16, newer than the platforms the package declares, and the tests must build wherever the
/// library does.
public struct Stopwatch: Sendable {
    private let start = DispatchTime.now().uptimeNanoseconds

    /// A stopwatch started now.
    public init() {}

    /// The seconds since the stopwatch started.
    public var seconds: Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000_000
    }
}
