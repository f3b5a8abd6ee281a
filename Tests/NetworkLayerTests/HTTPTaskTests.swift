import Foundation
import NetworkLayer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct Rating: Encodable {
    let value: Double
    let movieID: Int
}

@Suite("HTTPTask cases build the right request")
struct HTTPTaskTests {
    @Test(".request sends no body and no query")
    func plainRequest() throws {
        let request = try TestEndpoint(method: .delete, task: .request).urlRequest()
        #expect(request.httpMethod == "DELETE")
        #expect(request.httpBody == nil)
        #expect(request.url?.query == nil)
        #expect(request.value(forHTTPHeaderField: "Content-Type") == nil)
    }

    @Test(".requestParameters puts URL parameters in the query of a GET")
    func urlParameters() throws {
        let request = try TestEndpoint(task: .requestParameters(urlParameters: ["page": 1, "include_adult": false]))
            .urlRequest()
        #expect(query(of: request) == "include_adult=false&page=1")
        #expect(request.httpBody == nil)
    }

    @Test(".requestParameters with a JSON body and URL parameters")
    func jsonBodyParameters() throws {
        let endpoint = TestEndpoint(
            method: .post,
            task: .requestParameters(bodyParameters: ["name": "Heat", "year": 1995], urlParameters: ["lang": "en"])
        )
        let request = try endpoint.urlRequest()
        #expect(query(of: request) == "lang=en")
        #expect(bodyText(of: request) == #"{"name":"Heat","year":1995}"#)
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test(".requestParameters with a form body uses the endpoint's URL parameter encoder")
    func formBodyParameters() throws {
        var endpoint = TestEndpoint(
            method: .put,
            task: .requestParameters(bodyParameters: ["ids": [1, 2], "ok": true], bodyEncoding: .formURLEncoded)
        )
        #expect(bodyText(of: try endpoint.urlRequest()) == "ids%5B%5D=1&ids%5B%5D=2&ok=true")
        endpoint.urlParameterEncoder = URLParameterEncoder(arrayEncoding: .indexInBrackets, boolEncoding: .numeric)
        let request = try endpoint.urlRequest()
        #expect(bodyText(of: request) == "ids%5B0%5D=1&ids%5B1%5D=2&ok=1")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded; charset=utf-8")
    }

    @Test("The endpoint's URL encoder options apply to the query")
    func urlEncoderOptions() throws {
        let endpoint = TestEndpoint(
            task: .requestParameters(urlParameters: ["ids": [1, 2], "hd": true]),
            urlParameterEncoder: URLParameterEncoder(arrayEncoding: .noBrackets, boolEncoding: .numeric)
        )
        #expect(query(of: try endpoint.urlRequest()) == "hd=1&ids=1&ids=2")
    }

    @Test(".requestParametersAndHeaders adds its headers on top of the endpoint's")
    func additionalHeaders() throws {
        let endpoint = TestEndpoint(
            method: .post,
            headers: ["Accept": "text/html", "X-Client": "tests"],
            task: .requestParametersAndHeaders(
                bodyParameters: ["a": 1],
                urlParameters: ["q": "x"],
                additionalHeaders: ["accept": "application/json", "X-Request-ID": "42"]
            )
        )
        let request = try endpoint.urlRequest()
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(request.value(forHTTPHeaderField: "X-Client") == "tests")
        #expect(request.value(forHTTPHeaderField: "X-Request-ID") == "42")
        #expect(request.allHTTPHeaderFields?.count == 4)
        #expect(bodyText(of: request) == #"{"a":1}"#)
        #expect(query(of: request) == "q=x")
    }

    @Test(".requestJSONBody encodes with the encoder it is given")
    func jsonBody() throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = .sortedKeys
        let endpoint = TestEndpoint(
            method: .post,
            task: .requestJSONBody(Rating(value: 8.5, movieID: 550), urlParameters: ["session_id": "s 1"])
        )
        let request = try endpoint.urlRequest(encoder: encoder)
        #expect(bodyText(of: request) == #"{"movie_id":550,"value":8.5}"#)
        #expect(query(of: request) == "session_id=s%201")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test(".requestJSONBody reports an encoding failure with the type and coding path")
    func jsonBodyFailure() {
        let endpoint = TestEndpoint(method: .post, task: .requestJSONBody(Rating(value: .nan, movieID: 1)))
        #expect {
            try endpoint.urlRequest()
        } throws: { error in
            (error as? APIError)?.encodingFailureReason?.hasPrefix("Rating: invalid value at value") == true
        }
    }

    @Test(".requestData sends the bytes with its content type, over the endpoint's")
    func rawData() throws {
        let bytes = Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF])
        let endpoint = TestEndpoint(
            method: .post,
            headers: ["Content-Type": "application/json"],
            task: .requestData(bytes, contentType: "image/png")
        )
        let request = try endpoint.urlRequest()
        #expect(request.httpBody == bytes)
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "image/png")
    }

    @Test("A Content-Type set by the endpoint wins over the body encoder's")
    func endpointContentTypeWins() throws {
        let endpoint = TestEndpoint(
            method: .post,
            headers: ["content-type": "application/vnd.api+json"],
            task: .requestParameters(bodyParameters: ["a": 1])
        )
        let request = try endpoint.urlRequest()
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/vnd.api+json")
    }

    @Test(
        "GET and HEAD with a body are rejected before sending",
        arguments: [HTTPMethod.get, .head]
    )
    func bodyOnGet(method: HTTPMethod) {
        let tasks: [HTTPTask] = [
            .requestParameters(bodyParameters: ["a": 1]),
            .requestParameters(bodyParameters: [:], bodyEncoding: .formURLEncoded),
            .requestParametersAndHeaders(bodyParameters: ["a": 1], additionalHeaders: [:]),
            .requestJSONBody(Rating(value: 1, movieID: 1)),
            .requestData(Data("x".utf8), contentType: "text/plain"),
        ]
        for task in tasks {
            #expect(
                throws: APIError.invalidRequest(
                    "a \(method.rawValue) request cannot carry a body; send the values as urlParameters or use another method"
                )
            ) {
                try TestEndpoint(method: method, task: task).urlRequest()
            }
        }
    }

    @Test(
        "Headers that cannot be sent are rejected, not injected",
        arguments: [
            ["X-Evil": "a\r\nInjected: yes"] as HTTPHeaders, ["X-Nul": "a\u{0}b"], ["Bad Name": "v"], ["": "v"],
            ["Bad:Name": "v"],
        ])
    func invalidHeaders(headers: HTTPHeaders) {
        #expect {
            try TestEndpoint(headers: headers).urlRequest()
        } throws: { error in
            (error as? APIError)?.invalidRequestReason?.contains("cannot be sent") == true
        }
    }

    @Test("Parameter errors name the key whichever part of the request they are in")
    func parameterErrors() {
        let tasks: [HTTPTask] = [
            .requestParameters(urlParameters: Parameters(["when": Date()])),
            .requestParameters(bodyParameters: Parameters(["when": Date()])),
            .requestParameters(bodyParameters: Parameters(["when": Date()]), bodyEncoding: .formURLEncoded),
            .requestJSONBody(Rating(value: 1, movieID: 1), urlParameters: Parameters(["when": Date()])),
        ]
        for task in tasks {
            #expect {
                try TestEndpoint(method: .post, task: task).urlRequest()
            } throws: { error in
                (error as? APIError)?.encodingFailureReason?.hasPrefix("parameter 'when'") == true
            }
        }
    }
}
