import Foundation
import NetworkLayer

/// The process's threads and open file descriptors, counted from Linux's `/proc/self`.
public enum ProcessResources {
    /// Whether the counts can be read here (Linux).
    public static let isAvailable = FileManager.default.fileExists(atPath: "/proc/self/task")

    /// The process's threads now, `nil` where `/proc` is missing.
    public static var threads: Int? { entries(in: "/proc/self/task") }

    /// The process's open file descriptors now (sockets and files alike), `nil` where `/proc` is missing.
    public static var fileDescriptors: Int? {
        // Listing the directory opens one descriptor of its own.
        entries(in: "/proc/self/fd").map { $0 - 1 }
    }

    /// How many of the process's descriptors are open on `file` now: 0 where `/proc` is missing.
    public static func descriptors(openOn file: URL) -> Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        let path = file.resolvingSymlinksInPath().path
        return entries.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == path }.count
    }

    private static func entries(in path: String) -> Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: path))?.count
    }
}

/// Samples the process's thread count on a thread of its own until stopped, keeping the highest.
///
/// A thread outside Swift's cooperative pool and Dispatch's: a burst that starves either still
/// gets counted.
public final class ThreadSampler: Sendable {
    private struct State {
        var highest = 0
        var samples = 0
        var isStopped = false
    }

    private let state = Locked(State())

    /// Starts sampling every `interval` seconds.
    public init(interval: TimeInterval = 0.005) {
        let state = state
        Thread.detachNewThread {
            while !state.withLock({ $0.isStopped }) {
                if let threads = ProcessResources.threads {
                    state.withLock { state in
                        state.highest = max(state.highest, threads)
                        state.samples += 1
                    }
                }
                Thread.sleep(forTimeInterval: interval)
            }
        }
    }

    /// Stops sampling and returns the highest count seen and the number of samples taken.
    public func stop() -> (highest: Int, samples: Int) {
        state.withLock { state in
            state.isStopped = true
            return (state.highest, state.samples)
        }
    }
}

/// The time limit of a test that must end rather than hang.
public struct WallTimeout: Error, CustomStringConvertible {
    /// The limit, in seconds.
    public let seconds: Double

    /// What a failed test reports.
    public var description: String { "did not finish within \(seconds) s" }
}

/// Runs `operation` and returns its result, or throws ``WallTimeout`` once `seconds` pass, without
/// waiting for it: the operation is cancelled and left behind, so a hang fails the test instead of
/// stalling the run.
public func withWallTimeout<T: Sendable>(
    seconds: Double,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let outcome = Locked<CheckedContinuation<Result<T, any Error>, Never>?>(nil)
    let tasks = Locked<[Task<Void, Never>]>([])
    let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, any Error>, Never>) in
        outcome.withLock { $0 = continuation }
        let resume: @Sendable (Result<T, any Error>) -> Void = { result in
            outcome.withLock { pending in
                defer { pending = nil }
                return pending
            }?.resume(returning: result)
        }
        let work = Task {
            do {
                resume(.success(try await operation()))
            } catch {
                resume(.failure(error))
            }
        }
        let timer = Task {
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
            resume(.failure(WallTimeout(seconds: seconds)))
        }
        tasks.withLock { $0 = [work, timer] }
    }
    // The timer once the work is done, the work once the time is up.
    tasks.withLock { $0 }.forEach { $0.cancel() }
    return try result.get()
}
