import Foundation
import NetworkLayer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ArticleTests {
    /// The snippet of the article ChoosingATransport.md, run as written.
    @Suite("Article: Choosing a transport")
    struct ChoosingATransportArticleTests {
        typealias MovieAPI = Article.MovieAPI
        typealias MoviePage = Article.MoviePage

        struct Canned: HTTPTransport {
            func send(_ request: TransportRequest) async throws(APIError) -> TransportResponse {
                let head = HTTPResponse(statusCode: 200, url: request.urlRequest.url)
                return TransportResponse(head: head, body: ResponseBody(Data(#"{"page":1,"results":[]}"#.utf8)))
            }
        }

        @Test("A transport of your own serves the client")
        func cannedTransport() async throws {
            let client = NetworkClient(transport: Canned())
            let page = try await client.send(MovieAPI.popular(page: 1), as: MoviePage.self)
            #expect(page.page == 1)
            #expect(page.results.isEmpty)
        }
    }
}
