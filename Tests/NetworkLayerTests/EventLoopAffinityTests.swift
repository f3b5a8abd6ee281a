#if AsyncHTTPClient
    import AsyncHTTPClient
    import Foundation
    import NIOCore
    import NIOPosix
    @testable import NetworkLayer
    import TestSupport
    import Testing

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// Which event loop ``AsyncHTTPClientTransport``'s exchanges ask AsyncHTTPClient for: a request
    /// alone in flight its transport's home loop, so that a run of requests one after another runs its
    /// callbacks on the loop of the connection it reuses; requests among others the group's loops in turn.
    @Suite("AsyncHTTPClient event loop affinity")
    struct EventLoopAffinityTests {
        @Test(
            "A request alone in flight prefers the home loop, those among others the group's loops in turn, and a lone one the home loop again",
            arguments: TransportKind.all.filter { $0 == .asyncHTTPClient })
        func aloneOrAmongOthers(transport: TransportKind) throws {
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
            defer { try? group.syncShutdownGracefully() }
            let affinity = AsyncHTTPClientEventLoopAffinity(group: group)
            let home = try #require(affinity.home)
            #expect(group.makeIterator().contains { $0 === home })

            #expect(affinity.begin() === home)
            #expect(affinity.loops.count == 2)
            #expect(affinity.begin() === affinity.loops[0], "the group's loops in turn")
            #expect(affinity.begin() === affinity.loops[1])
            affinity.end()
            affinity.end()
            #expect(affinity.begin() === affinity.loops[0], "one is still under way: the next loop in turn")
            affinity.end()
            affinity.end()
            #expect(affinity.begin() === home)
            affinity.end()
        }

        @Test(
            "Two transports over one group take different home loops, as the group hands them out",
            arguments: TransportKind.all.filter { $0 == .asyncHTTPClient })
        func homesSpread(transport: TransportKind) throws {
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
            defer { try? group.syncShutdownGracefully() }
            let first = try #require(AsyncHTTPClientEventLoopAffinity(group: group).home)
            let second = try #require(AsyncHTTPClientEventLoopAffinity(group: group).home)
            #expect(first !== second)
        }

        @Test(
            "After hundreds of exchanges begun and ended at once, a lone one prefers the home loop again",
            arguments: TransportKind.all.filter { $0 == .asyncHTTPClient })
        func countsUnderConcurrency(transport: TransportKind) async throws {
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
            let affinity = AsyncHTTPClientEventLoopAffinity(group: group)
            let home = try #require(affinity.home)
            let preferredHome = await withTaskGroup(of: Bool.self) { tasks in
                for _ in 0..<500 {
                    tasks.addTask {
                        let loop = affinity.begin()
                        await Task.yield()
                        affinity.end()
                        return loop === home
                    }
                }
                return await tasks.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(preferredHome >= 1)
            #expect(affinity.begin() === home)
            affinity.end()
            try await group.shutdownGracefully()
        }

        @Test(
            "A group that does not list the loop it hands out gets no preference, where AsyncHTTPClient would trap on one",
            arguments: TransportKind.all.filter { $0 == .asyncHTTPClient })
        func unlistedLoop(transport: TransportKind) throws {
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            defer { try? group.syncShutdownGracefully() }
            let affinity = AsyncHTTPClientEventLoopAffinity(group: UnlistedGroup(loop: group.next()))
            #expect(affinity.home == nil)
            #expect(affinity.begin() == nil)
            affinity.end()
        }

        @Test(
            "A run of requests one after another over a client of two loops runs every exchange's callbacks on one loop",
            arguments: TransportKind.all.filter { $0 == .asyncHTTPClient })
        func sequentialRequestsStayOnOneLoop(transport: TransportKind) async throws {
            let server = try Self.jsonServer()
            defer { server.stop() }
            let client = OwnLoopsClient(numberOfThreads: 2)
            let url = try #require(URL(string: server.baseURL + "/"))
            try await client.run {
                for _ in 0..<10 {
                    let status = try await client.post(to: url)
                    #expect(status == 200)
                }
            }
            let seen = client.loops.withLock { $0 }
            #expect(seen.count >= 10)
            #expect(Set(seen).count == 1, "\(Set(seen).count) loops")
        }

        @Test(
            "Requests sent at once over a client of two loops run their exchanges on both",
            arguments: TransportKind.all.filter { $0 == .asyncHTTPClient })
        func burstSpreadsOverLoops(transport: TransportKind) async throws {
            let arrived = Locked(0)
            let server = try ScriptedServer { connection in
                // Each answer waits for four requests to be in flight (or 5 s): most are sent among others.
                arrived.withLock { $0 += 1 }
                let deadline = Date().addingTimeInterval(5)
                while arrived.withLock({ $0 }) < 4, Date() < deadline { usleep(1000) }
                connection.writeHead(headers: ["Content-Length": "2", "Content-Type": "application/json"])
                connection.write(Data("[]".utf8))
            }
            defer { server.stop() }
            let client = OwnLoopsClient(numberOfThreads: 2)
            let url = try #require(URL(string: server.baseURL + "/"))
            let statuses = try await client.run {
                try await withThrowingTaskGroup(of: Int.self) { tasks in
                    for _ in 0..<16 {
                        tasks.addTask { try await client.post(to: url) }
                    }
                    return try await tasks.reduce(into: []) { $0.append($1) }
                }
            }
            #expect(statuses == Array(repeating: 200, count: 16))
            #expect(Set(client.loops.withLock { $0 }).count == 2)
        }

        @Test(
            "A request cancelled while it waits to be handed to its loop is never sent",
            arguments: TransportKind.all.filter { $0 == .asyncHTTPClient })
        func cancelledBeforeItsLoop(transport: TransportKind) async throws {
            let server = try Self.jsonServer()
            defer { server.stop() }
            let client = OwnLoopsClient(numberOfThreads: 1)
            let loop = client.group.next()
            // The loop is held, so that the request waits there to be handed to it.
            let release = DispatchSemaphore(value: 0)
            loop.execute { release.wait() }
            let url = try #require(URL(string: server.baseURL + "/"))
            try await client.run {
                let request = Task { try await client.transport.data(for: TransportRequest(URLRequest(url: url))) }
                try await Task.sleep(for: .milliseconds(50))
                request.cancel()
                await #expect(throws: APIError.cancelled) { try await request.value }
                release.signal()
                // The handed-off start has run once this does; a request started then would connect within milliseconds.
                try await loop.submit {}.get()
                for _ in 0..<20 where server.accepted == 0 { try await Task.sleep(for: .milliseconds(10)) }
            }
            #expect(server.accepted == 0)
        }

        /// A server that answers every request with an empty JSON array.
        private static func jsonServer() throws -> ScriptedServer {
            try ScriptedServer { connection in
                connection.writeHead(headers: ["Content-Length": "2", "Content-Type": "application/json"])
                connection.write(Data("[]".utf8))
            }
        }
    }

    /// A transport over an `HTTPClient` of its own with its own event loops, noting the loop each exchange runs on.
    private struct OwnLoopsClient: Sendable {
        let group: MultiThreadedEventLoopGroup
        let httpClient: HTTPClient
        let transport: AsyncHTTPClientTransport
        /// The loops the exchanges' callbacks ran on, one entry a callback.
        let loops = Locked<[ObjectIdentifier]>([])

        init(numberOfThreads: Int) {
            group = MultiThreadedEventLoopGroup(numberOfThreads: numberOfThreads)
            httpClient = HTTPClient(eventLoopGroup: group, configuration: AsyncHTTPClientTransport.defaultConfiguration())
            transport = AsyncHTTPClientTransport(client: httpClient)
        }

        /// Sends a `POST` of `{}` to `url` and returns the status. AsyncHTTPClient tells the delegate of
        /// the body going out on the loop it runs the delegate on: that loop is noted.
        func post(to url: URL) async throws -> Int {
            var request = URLRequest(url: url)
            request.httpMethod = "POST"
            request.httpBody = Data("{}".utf8)
            let response = try await transport.data(
                for: TransportRequest(request) { [loops] _, _ in
                    if let loop = MultiThreadedEventLoopGroup.currentEventLoop {
                        loops.withLock { $0.append(ObjectIdentifier(loop)) }
                    }
                })
            return response.statusCode
        }

        /// Runs `body`, then shuts the client and its loops down, whether `body` throws or not: a client
        /// left running traps when it is freed.
        func run<T: Sendable>(_ body: () async throws -> T) async throws -> T {
            let result: Result<T, any Error>
            do {
                result = .success(try await body())
            } catch {
                result = .failure(error)
            }
            try await httpClient.shutdown()
            try await group.shutdownGracefully()
            return try result.get()
        }
    }

    /// A group whose iterator lists none of the loops it hands out.
    private final class UnlistedGroup: EventLoopGroup {
        let loop: any EventLoop

        init(loop: any EventLoop) {
            self.loop = loop
        }

        func next() -> any EventLoop { loop }

        func makeIterator() -> EventLoopIterator { EventLoopIterator([]) }

        func shutdownGracefully(queue: DispatchQueue, _ callback: @escaping @Sendable ((any Error)?) -> Void) {
            callback(nil)
        }
    }
#endif
