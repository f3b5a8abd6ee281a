import Foundation
import NetworkLayer
import NetworkLayerTesting
import Testing

@Suite("Concurrency")
struct ConcurrencyTests {
    @Test("Hundreds of concurrent fetches on one client each get their own answer")
    func concurrentFetches() async throws {
        let stubbed = StubbedClient()
        let count = 300
        for index in 0..<count {
            stubbed.stubs.register(.get, "/movie/\(index)", .json(#"{"id":\#(index),"title":"Movie \#(index)"}"#))
        }
        let movies = try await withThrowingTaskGroup(of: Movie.self) { group in
            for index in 0..<count {
                group.addTask { try await stubbed.client.send(TestEndpoint(path: "/movie/\(index)"), as: Movie.self) }
            }
            return try await group.reduce(into: [Movie]()) { $0.append($1) }
        }
        #expect(movies.count == count)
        #expect(Set(movies.map(\.id)) == Set(0..<count))
        #expect(movies.allSatisfy { $0.title == "Movie \($0.id)" })
        #expect(stubbed.stubs.requests.count == count)
    }

    @Test("Concurrent completion-handler fetches each complete exactly once")
    func concurrentCompletions() async {
        let stubbed = StubbedClient()
        stubbed.stubs.register(.get, "/items", .json(#"{"id":1,"title":"A"}"#))
        let count = 200
        let recorder = CompletionRecorder<Movie>()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<count {
                group.addTask { stubbed.client.fetch(TestEndpoint(), as: Movie.self) { recorder.record($0) } }
            }
        }
        #expect(await eventually { recorder.count == count })
        #expect(recorder.results.allSatisfy { (try? $0.get()) == Movie(id: 1, title: "A") })
    }

    @Test("Stub sessions used in parallel never answer each other's requests")
    func stubIsolation() async throws {
        let sessions = (0..<50).map { _ in StubSession() }
        for (index, stubs) in sessions.enumerated() {
            stubs.register(.get, "/same/path", .json(#"{"id":\#(index),"title":"s"}"#))
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, stubs) in sessions.enumerated() {
                group.addTask {
                    let client = NetworkClient(transport: URLSessionTransport(session: stubs.session))
                    for _ in 0..<5 {
                        let movie = try await client.send(TestEndpoint(path: "/same/path"), as: Movie.self)
                        #expect(movie.id == index)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(sessions.allSatisfy { $0.requests.count == 5 })
    }
}
