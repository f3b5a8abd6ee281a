import Foundation
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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

@Suite("HTTPMethod normalisation")
struct HTTPMethodNormalisationTests {
    @Test(
        "get, head, post, put, delete and connect in any case are sent uppercased; others as written",
        arguments: [
            ("get", "GET"), ("Get", "GET"), ("hEaD", "HEAD"), ("post", "POST"), ("Put", "PUT"), ("delete", "DELETE"),
            ("connect", "CONNECT"), ("patch", "patch"), ("purge", "purge"), ("GETS", "GETS"), ("options", "options"),
        ])
    func normalized(token: String, sent: String) throws {
        #expect(HTTPMethod(rawValue: token).normalized.rawValue == sent)
        let request = try TestEndpoint(method: HTTPMethod(rawValue: token)).urlRequest()
        #expect(request.httpMethod == sent)
    }

    @Test("A body on get or head in any case is refused like one on GET or HEAD", arguments: ["get", "Get", "gEt", "head", "HeAd"])
    func lowercaseBodyRefused(token: String) {
        let method = HTTPMethod(rawValue: token)
        #expect(!method.allowsRequestBody)
        let endpoint = TestEndpoint(method: method, task: .requestData(Data("x".utf8), contentType: "text/plain"))
        let error = #expect(throws: APIError.self) { try endpoint.urlRequest() }
        #expect(error?.invalidRequestReason?.contains("cannot carry a body") == true)
    }

    @Test("A body on patch or a custom token is allowed, in any case", arguments: ["patch", "PATCH", "purge", "Post"])
    func otherBodiesAllowed(token: String) throws {
        let endpoint = TestEndpoint(method: HTTPMethod(rawValue: token), task: .requestData(Data("x".utf8), contentType: "text/plain"))
        #expect(try endpoint.urlRequest().httpBody == Data("x".utf8))
    }

    @Test("Methods are equal when their tokens are the same bytes, not merely the same text")
    func byteEquality() {
        #expect(HTTPMethod(rawValue: "caf\u{E9}") != HTTPMethod(rawValue: "cafe\u{301}"))
        #expect(Set([HTTPMethod(rawValue: "caf\u{E9}"), HTTPMethod(rawValue: "cafe\u{301}")]).count == 2)
        #expect(HTTPMethod(rawValue: "get") != .get, "the token as given is kept")
    }
}
