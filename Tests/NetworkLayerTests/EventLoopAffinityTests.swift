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
    /// callbacks on the loop of the connection it reuses; requests among others none.
    @Suite("AsyncHTTPClient event loop affinity")
    struct EventLoopAffinityTests {
        @Test(
            "A request alone in flight prefers the home loop, one among others none, and the home loop again once they are done",
            arguments: TransportKind.all.filter { $0 == .asyncHTTPClient })
        func aloneOrAmongOthers(transport: TransportKind) throws {
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
            defer { try? group.syncShutdownGracefully() }
            let affinity = AsyncHTTPClientEventLoopAffinity(group: group)
            let home = try #require(affinity.home)
            #expect(group.makeIterator().contains { $0 === home })

            #expect(affinity.begin() === home)
            #expect(affinity.begin() == nil)
            #expect(affinity.begin() == nil)
            affinity.end()
            affinity.end()
            #expect(affinity.begin() == nil, "one is still under way")
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
            let server = try ScriptedServer { connection in
                connection.writeHead(headers: ["Content-Length": "2", "Content-Type": "application/json"])
                connection.write(Data("[]".utf8))
            }
            defer { server.stop() }
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
            let httpClient = HTTPClient(eventLoopGroup: group, configuration: AsyncHTTPClientTransport.defaultConfiguration())
            let sender = AsyncHTTPClientTransport(client: httpClient)
            // AsyncHTTPClient tells the delegate of the body going out on the loop it runs the delegate on.
            let loops = Locked<[ObjectIdentifier]>([])
            for _ in 0..<10 {
                var request = try URLRequest(url: #require(URL(string: server.baseURL + "/")))
                request.httpMethod = "POST"
                request.httpBody = Data("{}".utf8)
                let response = try await sender.data(
                    for: TransportRequest(request) { _, _ in
                        if let loop = MultiThreadedEventLoopGroup.currentEventLoop {
                            loops.withLock { $0.append(ObjectIdentifier(loop)) }
                        }
                    })
                #expect(response.statusCode == 200)
            }
            try await httpClient.shutdown()
            try await group.shutdownGracefully()
            let seen = loops.withLock { $0 }
            #expect(seen.count >= 10)
            #expect(Set(seen).count == 1, "\(Set(seen).count) loops")
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
