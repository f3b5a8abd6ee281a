import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking

    /// What FoundationNetworking tells about a request's connection, which is why ObservingRequests says
    /// URLSession on Linux gives no timings: when a release starts to deliver `URLSessionTaskMetrics`,
    /// these fail, and the article (and the client) can use them.
    @Suite("FoundationNetworking's task metrics")
    struct FoundationNetworkingMetricsTests {
        /// Counts the delegate calls of its tasks.
        final class Delegate: NSObject, URLSessionTaskDelegate, Sendable {
            let metrics = LockedArray<String>()
            let completions = LockedArray<String>()

            func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics) {
                self.metrics.append(metrics.transactionMetrics.last?.networkProtocolName ?? "")
            }

            func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
                completions.append(error.map { "\($0)" } ?? "ok")
            }
        }

        @Test("A delegate never gets urlSession(_:task:didFinishCollecting:), though its tasks complete")
        func noTaskMetrics() async throws {
            let server = try RouteServer { _, _ in .init(status: 200, body: "{}") }
            let delegate = Delegate()
            let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
            defer { session.invalidateAndCancel() }
            for _ in 0..<2 {
                let (_, response) = try await session.data(for: try server.request("/metrics"))
                #expect((response as? HTTPURLResponse)?.statusCode == 200)
                let task = session.dataTask(with: try server.request("/metrics"))
                task.resume()
            }
            // The delegate's calls come on the session's queue: give them time.
            let deadline = Date(timeIntervalSinceNow: 5)
            while delegate.completions.count < 2, Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
            try await Task.sleep(nanoseconds: 200_000_000)
            #expect(delegate.completions.count >= 2, "the tasks without a completion handler told the delegate they ended")
            #expect(delegate.metrics.count == 0)
        }
    }
#endif
