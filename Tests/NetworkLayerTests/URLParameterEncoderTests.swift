import Foundation
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One query-encoding case: parameters in, the exact query out.
struct QueryCase: CustomTestStringConvertible, Sendable {
    let name: String
    let parameters: @Sendable () -> Parameters
    let expected: String
    var testDescription: String { name }
}

@Suite("URLParameterEncoder")
struct URLParameterEncoderTests {
    static let defaultCases: [QueryCase] = [
        QueryCase(name: "keys sorted", parameters: { ["b": 2, "a": 1, "c": 3] }, expected: "a=1&b=2&c=3"),
        QueryCase(name: "string", parameters: { ["q": "heat"] }, expected: "q=heat"),
        QueryCase(name: "empty string", parameters: { ["q": ""] }, expected: "q="),
        QueryCase(name: "bool literal", parameters: { ["adult": false, "hd": true] }, expected: "adult=false&hd=true"),
        QueryCase(name: "int", parameters: { ["page": 42, "neg": -7] }, expected: "neg=-7&page=42"),
        QueryCase(
            name: "other integer widths", parameters: { ["u": UInt8(255), "i": Int64.min] }, expected: "i=-9223372036854775808&u=255"),
        QueryCase(name: "double", parameters: { ["r": 8.5, "w": 1.0, "t": 1e-7] }, expected: "r=8.5&t=1e-07&w=1.0"),
        QueryCase(name: "float", parameters: { ["f": Float(0.1)] }, expected: "f=0.1"),
        QueryCase(name: "decimal", parameters: { ["d": Decimal(string: "12.50")!] }, expected: "d=12.5"),
        QueryCase(name: "nil omitted", parameters: { ["a": 1, "b": Int?.none, "c": String?.none] }, expected: "a=1"),
        QueryCase(
            name: "optionals unwrapped", parameters: { ["a": Int?.some(3), "b": Bool?.some(true)] }, expected: "a=3&b=true"),
        QueryCase(name: "NSNull omitted", parameters: { Parameters(["a": NSNull(), "b": "x"]) }, expected: "b=x"),
        QueryCase(name: "array with brackets", parameters: { ["ids": [1, 2, 3]] }, expected: "ids%5B%5D=1&ids%5B%5D=2&ids%5B%5D=3"),
        QueryCase(name: "empty array writes nothing", parameters: { ["ids": [Int](), "a": 1] }, expected: "a=1"),
        QueryCase(
            name: "nested dictionary", parameters: { ["filter": ["year": 1995, "genre": "crime"]] },
            expected: "filter%5Bgenre%5D=crime&filter%5Byear%5D=1995"),
        QueryCase(
            name: "deep nesting", parameters: { ["a": ["b": ["c": [1, 2]]]] },
            expected: "a%5Bb%5D%5Bc%5D%5B%5D=1&a%5Bb%5D%5Bc%5D%5B%5D=2"),
        QueryCase(
            name: "array of dictionaries", parameters: { ["p": [["x": 1], ["x": 2]]] },
            expected: "p%5B%5D%5Bx%5D=1&p%5B%5D%5Bx%5D=2"),
        QueryCase(name: "space is %20, never +", parameters: { ["q": "a b"] }, expected: "q=a%20b"),
        QueryCase(
            name: "tricky characters", parameters: { ["q": "a b+c&d=é/?#"] },
            expected: "q=a%20b%2Bc%26d%3D%C3%A9%2F%3F%23"),
        QueryCase(name: "keys are escaped too", parameters: { ["a b&c": "v"] }, expected: "a%20b%26c=v"),
        QueryCase(name: "unreserved kept raw", parameters: { ["k": "AZaz09-._~"] }, expected: "k=AZaz09-._~"),
        QueryCase(
            name: "every reserved and special ASCII byte escaped", parameters: { ["k": "!*'();:@&=+$,/?#[]%\"<>\\^`{|} "] },
            expected: "k=%21%2A%27%28%29%3B%3A%40%26%3D%2B%24%2C%2F%3F%23%5B%5D%25%22%3C%3E%5C%5E%60%7B%7C%7D%20"),
        QueryCase(name: "control characters escaped", parameters: { ["k": "a\nb\t\u{0}"] }, expected: "k=a%0Ab%09%00"),
        QueryCase(name: "emoji as UTF-8", parameters: { ["k": "🎬"] }, expected: "k=%F0%9F%8E%AC"),
        QueryCase(name: "empty parameters", parameters: { [:] }, expected: ""),
        QueryCase(name: "a lone nil writes nothing", parameters: { ["a": Int?.none] }, expected: ""),
        QueryCase(
            name: "plain values between nested ones keep their own names",
            parameters: { ["a": 1, "b": ["x": "y"], "c": "s", "d": [true, false], "e": 2.5] },
            expected: "a=1&b%5Bx%5D=y&c=s&d%5B%5D=true&d%5B%5D=false&e=2.5"),
    ]

    @Test("Default options", arguments: defaultCases)
    func defaults(testCase: QueryCase) throws {
        #expect(try URLParameterEncoder().query(for: testCase.parameters()) == testCase.expected)
    }

    @Test(
        "Array styles",
        arguments: [
            (ArrayEncoding.brackets, "ids%5B%5D=1&ids%5B%5D=2"),
            (.noBrackets, "ids=1&ids=2"),
            (.indexInBrackets, "ids%5B0%5D=1&ids%5B1%5D=2"),
        ])
    func arrayStyles(style: ArrayEncoding, expected: String) throws {
        let encoder = URLParameterEncoder(arrayEncoding: style)
        #expect(try encoder.query(for: ["ids": [1, 2]]) == expected)
    }

    @Test("Indexed arrays nest their indices")
    func nestedIndices() throws {
        let encoder = URLParameterEncoder(arrayEncoding: .indexInBrackets)
        #expect(try encoder.query(for: ["m": [[1, 2], [3]]]) == "m%5B0%5D%5B0%5D=1&m%5B0%5D%5B1%5D=2&m%5B1%5D%5B0%5D=3")
    }

    @Test("Bool styles", arguments: [(BoolEncoding.literal, "a=true&b=false"), (.numeric, "a=1&b=0")])
    func boolStyles(style: BoolEncoding, expected: String) throws {
        let encoder = URLParameterEncoder(boolEncoding: style)
        #expect(try encoder.query(for: ["a": true, "b": false]) == expected)
    }

    @Test("Unsupported values fail naming the key path")
    func unsupported() {
        #expect(
            throws: APIError.encodingFailed(
                "parameter 'since': Date is not supported; use String, Bool, an integer, Double, Decimal, or arrays and dictionaries of them"
            )
        ) {
            try URLParameterEncoder().query(for: Parameters(["page": 1, "since": Date(timeIntervalSince1970: 0)]))
        }
        #expect {
            try URLParameterEncoder().query(for: Parameters(["filter": ["ids": [1, URL(fileURLWithPath: "/")]]]))
        } throws: { error in
            (error as? APIError)?.encodingFailureReason?.hasPrefix("parameter 'filter.ids[1]': URL is not supported") == true
        }
    }

    @Test("Non-finite numbers fail instead of sending nan or inf", arguments: [Double.nan, .infinity, -.infinity])
    func nonFinite(value: Double) {
        #expect(throws: APIError.encodingFailed("parameter 'x': \(value) is not a finite number")) {
            try URLParameterEncoder().query(for: ["x": value])
        }
    }

    @Test("encode(_:into:) appends after an existing query and leaves the rest of the request alone")
    func encodeIntoRequest() throws {
        var request = URLRequest(url: try #require(URL(string: "https://h.test/p?x=1")))
        request.httpMethod = "DELETE"
        request.setValue("v", forHTTPHeaderField: "X-Keep")
        let encoded = try URLParameterEncoder().encode(["q": "a b"], into: request)
        #expect(encoded.url?.absoluteString == "https://h.test/p?x=1&q=a%20b")
        #expect(encoded.httpMethod == "DELETE")
        #expect(encoded.value(forHTTPHeaderField: "X-Keep") == "v")
        #expect(encoded.httpBody == nil)
    }
}
