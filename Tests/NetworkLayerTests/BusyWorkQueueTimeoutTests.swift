#if canImport(FoundationNetworking)
    import Dispatch
    import Foundation
    import FoundationNetworking
    import NetworkLayer
    import TestSupport
    import Testing

    /// FoundationNetworking's work queue is the process's: a callback that holds one session's queue
    /// holds every session's `dataTask(with:)`. A call waits for none of it: its task is created and
    /// resumed off its path, so its timeout answers it on time. Run in the pass of `scripts/test` that
    /// holds the work queue busy on purpose (`BusyWorkQueue`), not beside the other unit tests.
    @Suite("A call ends by its timeout while another session holds the work queue", .timeSensitive)
    struct BusyWorkQueueTimeoutTests {
        @Test("A call alone on its transport times out on time while another transport's upload callback holds the work queue")
        func timesOutWhileHeld() async throws {
            let server = try RouteServer { _, _ in RouteServer.Answer(status: 200, body: "{}") }
            defer { server.stop() }
            let held = DispatchSemaphore(value: 0)
            let entered = Locked(false)
            // The progress of an upload is reported on the work queue: holding it holds the queue.
            var upload = try server.request("/upload")
            upload.httpMethod = "POST"
            upload.httpBody = Data(repeating: 0x61, count: 100_000)
            let holding = TransportRequest(
                upload,
                sendProgress: { _, _ in
                    let isFirst = entered.withLock { entered in
                        defer { entered = true }
                        return !entered
                    }
                    if isFirst { _ = held.wait(timeout: .now() + 4) }
                })
            let holder = Task { try? await URLSessionTransport().send(holding) }
            #expect(await eventually { entered.withLock { $0 } })

            var lone = try server.request("/ok")
            lone.timeoutInterval = 0.5
            let stopwatch = Stopwatch()
            var failure: APIError?
            do throws(APIError) {
                _ = try await URLSessionTransport().send(TransportRequest(lone))
            } catch {
                failure = error
            }
            let seconds = stopwatch.seconds
            held.signal()
            _ = await holder.value
            #expect(failure == .timedOut)
            // Started on the caller's thread, the call waited for the held queue: 4 s.
            #expect(seconds < 2, "answered after \(seconds) s")
        }
    }
#endif
