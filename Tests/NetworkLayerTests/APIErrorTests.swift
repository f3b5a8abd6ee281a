import Foundation
import NetworkLayer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("APIError")
struct APIErrorTests {
    static let notFound = HTTPResponse(
        statusCode: 404,
        headers: ["Content-Type": "application/json"],
        body: Data(#"{"status_message":"The resource you requested could not be found."}"#.utf8)
    )

    @Test(
        "Every case has a readable description",
        arguments: [
            (
                APIError.invalidURL("ht tp://x"),
                "Invalid URL 'ht tp://x': expected an absolute URL with a scheme and a host, such as https://api.example.com"
            ),
            (.invalidRequest("a GET request cannot carry a body"), "Invalid request: a GET request cannot carry a body"),
            (.encodingFailed("parameter 'since': Date is not supported"), "Encoding failed: parameter 'since': Date is not supported"),
            (
                .requestFailed(
                    URLError(.cannotConnectToHost, userInfo: [NSURLErrorFailingURLErrorKey: URL(string: "http://127.0.0.1:9")!])),
                "Request failed: could not connect to the server [URLError -1004] (http://127.0.0.1:9)"
            ),
            (.requestFailed(URLError(.notConnectedToInternet)), "Request failed: not connected to the internet [URLError -1009]"),
            (.timedOut, "The request timed out: nothing was sent or received for its idle timeout"),
            (.cancelled, "The request was cancelled"),
            (.invalidResponse, "The response was not an HTTP response"),
            (
                .unacceptableStatusCode(404, notFound),
                #"The server answered 404 Not Found: {"status_message":"The resource you requested could not be found."}"#
            ),
            (.unacceptableStatusCode(503, HTTPResponse(statusCode: 503)), "The server answered 503 Service Unavailable"),
            (.unacceptableStatusCode(999, HTTPResponse(statusCode: 999)), "The server answered 999 (outside HTTP's 100–599)"),
            (.invalidData, "The response body was empty where a value was expected"),
            (
                .decodingFailed(
                    "MoviePage: key 'total_results' not found at results[3]", body: Data("{}".utf8),
                    error: DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "x"))),
                "Decoding failed: MoviePage: key 'total_results' not found at results[3] (body: 2 bytes)"
            ),
            (.deadlineExceeded(30), "The request did not finish within its deadline of 30 s"),
            (.deadlineExceeded(0.25), "The request did not finish within its deadline of 0.25 s"),
        ])
    func descriptions(error: APIError, expected: String) {
        #expect(error.description == expected)
        #expect(error.localizedDescription == expected)
    }

    @Test("A long or multi-line body is shortened in the description, and kept whole in the error")
    func longBody() {
        let body = Data((String(repeating: "x", count: 600) + "\nmore").utf8)
        let error = APIError.unacceptableStatusCode(500, HTTPResponse(statusCode: 500, body: body))
        #expect(error.description.hasSuffix(String(repeating: "x", count: 512) + "…"))
        #expect(error.response?.body == body)
        let multiline = APIError.unacceptableStatusCode(400, HTTPResponse(statusCode: 400, body: Data("line one\nline two".utf8)))
        #expect(multiline.description == "The server answered 400 Bad Request: line one line two")
    }

    @Test("statusCode and response are there only for status failures")
    func accessors() {
        #expect(APIError.unacceptableStatusCode(404, Self.notFound).statusCode == 404)
        #expect(APIError.unacceptableStatusCode(404, Self.notFound).response == Self.notFound)
        #expect(APIError.timedOut.statusCode == nil)
        #expect(APIError.invalidData.response == nil)
    }

    @Test(
        "A transport error's description keeps the transport's own detail when it adds to the code's meaning",
        arguments: [
            (
                URLError(.badServerResponse, userInfo: [NSLocalizedDescriptionKey: "Received HTTP/0.9 when not allowed"]),
                "Request failed: the server's response could not be parsed: Received HTTP/0.9 when not allowed [URLError -1011]"
            ),
            (
                URLError(
                    .networkConnectionLost, userInfo: [NSLocalizedDescriptionKey: "transfer closed with 4000 bytes remaining to read"]),
                "Request failed: the network connection was lost: transfer closed with 4000 bytes remaining to read [URLError -1005]"
            ),
            (
                URLError(.cannotConnectToHost, userInfo: [NSLocalizedDescriptionKey: "Could not connect to the server."]),
                "Request failed: could not connect to the server [URLError -1004]"
            ),
            (URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "Out of memory"]), "Request failed: Out of memory [URLError -1]"),
            (URLError(.unknown), "Request failed: URL error [URLError -1]"),
        ])
    func transportDetail(error: URLError, expected: String) {
        #expect(APIError.requestFailed(error).description == expected)
    }

    @Test("A transport error's description hides secrets in the failing URL's query")
    func transportErrorRedactsQuery() throws {
        let url = try #require(URL(string: "https://api.example.com/3/movie/550?api_key=s3cret&page=2&token=t0k"))
        let error = APIError.requestFailed(URLError(.cannotConnectToHost, userInfo: [NSURLErrorFailingURLErrorKey: url]))
        #expect(
            error.description
                == "Request failed: could not connect to the server [URLError -1004] (https://api.example.com/3/movie/550?api_key=<redacted>&page=2&token=<redacted>)"
        )
    }
}
