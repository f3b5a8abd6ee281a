import NetworkLayer
import Testing

@Suite("HTTPMethod")
struct HTTPMethodTests {
    @Test(
        "Static methods carry their wire tokens",
        arguments: [
            (HTTPMethod.get, "GET"), (.post, "POST"), (.put, "PUT"), (.patch, "PATCH"),
            (.delete, "DELETE"), (.head, "HEAD"), (.options, "OPTIONS"),
        ])
    func tokens(method: HTTPMethod, token: String) {
        #expect(method.rawValue == token)
        #expect(HTTPMethod(rawValue: token) == method)
    }

    @Test("Custom methods are kept verbatim and are distinct values")
    func custom() {
        let purge = HTTPMethod(rawValue: "PURGE")
        #expect(purge.rawValue == "PURGE")
        #expect(purge.description == "PURGE")
        #expect(Set([purge, .get, HTTPMethod(rawValue: "PURGE")]).count == 2)
    }

    @Test("Only GET and HEAD refuse a body")
    func bodies() {
        #expect(!HTTPMethod.get.allowsRequestBody)
        #expect(!HTTPMethod.head.allowsRequestBody)
        #expect(HTTPMethod.post.allowsRequestBody)
        #expect(HTTPMethod.delete.allowsRequestBody)
        #expect(HTTPMethod(rawValue: "PURGE").allowsRequestBody)
    }
}
