import Foundation
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Form bodies and JSON bodies")
struct FormAndJSONEncoderTests {
    private func post() throws -> URLRequest {
        var request = URLRequest(url: try #require(URL(string: "https://h.test/form")))
        request.httpMethod = "POST"
        return request
    }

    @Test("A form body uses the query rules and sets the form content type")
    func form() throws {
        let request = try URLParameterEncoder().encode(
            asForm: ["name": "a b+c", "tags": ["x", "y"], "ok": true, "skip": Int?.none], into: post())
        #expect(bodyText(of: request) == "name=a%20b%2Bc&ok=true&tags%5B%5D=x&tags%5B%5D=y")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded; charset=utf-8")
        #expect(request.url?.query == nil)
    }

    @Test("Form options apply to the body")
    func formOptions() throws {
        let encoder = URLParameterEncoder(arrayEncoding: .noBrackets, boolEncoding: .numeric)
        let request = try encoder.encode(asForm: ["t": ["x", "y"], "b": true], into: post())
        #expect(bodyText(of: request) == "b=1&t=x&t=y")
    }

    @Test("A JSON body has sorted keys, null for nil, and the JSON content type")
    func json() throws {
        let request = try JSONParameterEncoder().encode(
            [
                "title": "Heat", "year": 1995, "rating": 8.5, "tags": ["crime", "drama"], "adult": false,
                "director": ["name": "Michael Mann"], "sequel": String?.none, "price": Decimal(string: "9.99")!,
            ],
            into: post())
        #expect(
            bodyText(of: request)
                == #"{"adult":false,"director":{"name":"Michael Mann"},"price":9.99,"rating":8.5,"sequel":null,"tags":["crime","drama"],"title":"Heat","year":1995}"#
        )
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test("JSON strings are escaped per RFC 8259 and round-trip")
    func jsonEscaping() throws {
        let text = "quote\" back\\ slash/ é 🎬 \n\r\t\u{8}\u{C}\u{1}"
        let request = try JSONParameterEncoder().encode(["s": text], into: post())
        #expect(bodyText(of: request) == #"{"s":"quote\" back\\ slash/ é 🎬 \n\r\t\b\f\u0001"}"#)
        let decoded = try JSONSerialization.jsonObject(with: try #require(request.httpBody)) as? [String: String]
        #expect(decoded?["s"] == text)
    }

    @Test("JSON rejects what it cannot represent, naming the key")
    func jsonErrors() throws {
        #expect(throws: APIError.encodingFailed("parameter 'a.b[0]': nan is not a finite number")) {
            try JSONParameterEncoder().encode(["a": ["b": [Double.nan]]], into: try post())
        }
        #expect {
            try JSONParameterEncoder().encode(Parameters(["when": Date()]), into: try post())
        } throws: { error in
            (error as? APIError)?.encodingFailureReason?.hasPrefix("parameter 'when': Date is not supported") == true
        }
    }

    @Test("Encoders never overwrite a Content-Type already set")
    func keepsContentType() throws {
        var request = try post()
        request.setValue("application/vnd.api+json", forHTTPHeaderField: "Content-Type")
        let json = try JSONParameterEncoder().encode(["a": 1], into: request)
        #expect(json.value(forHTTPHeaderField: "Content-Type") == "application/vnd.api+json")
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        let form = try URLParameterEncoder().encode(asForm: ["a": 1], into: request)
        #expect(form.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded")
        #expect(bodyText(of: form) == "a=1")
    }

    @Test("Objective-C numbers keep their kind: booleans stay booleans, 1 stays 1")
    func nsNumbers() throws {
        let parsed = try JSONSerialization.jsonObject(with: Data(#"{"flag":true,"one":1,"half":0.5}"#.utf8))
        let parameters = try #require(parsed as? [String: Any])
        #expect(try URLParameterEncoder().query(for: Parameters(parameters)) == "flag=true&half=0.5&one=1")
    }
}
