import Foundation
import Testing

@testable import NetworkLayer

@Suite("HTTPHeaders")
struct HTTPHeadersTests {
    @Test("Lookup ignores case")
    func caseInsensitiveLookup() {
        let headers: HTTPHeaders = ["Content-Type": "application/json"]
        #expect(headers["content-type"] == "application/json")
        #expect(headers["CONTENT-TYPE"] == "application/json")
        #expect(headers.contains(name: "cOnTeNt-TyPe"))
        #expect(headers["Accept"] == nil)
    }

    @Test("Setting a name again replaces its value in place, never duplicates")
    func replacement() {
        var headers: HTTPHeaders = ["Accept": "text/html", "Content-Type": "text/plain", "X-Id": "1"]
        headers["content-type"] = "application/json"
        headers.add(name: "ACCEPT", value: "application/json")
        #expect(headers.count == 3)
        #expect(headers.map(\.name) == ["Accept", "Content-Type", "X-Id"])
        #expect(headers.map(\.value) == ["application/json", "application/json", "1"])
    }

    @Test("Order is kept and the sequence yields name/value pairs")
    func order() {
        let headers: HTTPHeaders = ["Zeta": "1", "Alpha": "2", "Mid": "3"]
        #expect(headers.map { "\($0.name)=\($0.value)" } == ["Zeta=1", "Alpha=2", "Mid=3"])
    }

    @Test("A literal with the same name twice keeps the last value once")
    func literalDuplicates() {
        let headers: HTTPHeaders = ["X-A": "1", "x-a": "2"]
        #expect(headers.count == 1)
        #expect(headers["X-A"] == "2")
    }

    @Test("Assigning nil removes a field")
    func removal() {
        var headers: HTTPHeaders = ["A": "1", "B": "2"]
        headers["a"] = nil
        #expect(headers.map(\.name) == ["B"])
        headers.remove(name: "b")
        #expect(headers.isEmpty)
    }

    @Test("Merging lets the other side win, keeping the original position")
    func merging() {
        let base: HTTPHeaders = ["Accept": "text/html", "X-Trace": "a"]
        let merged = base.merging(["accept": "application/json", "X-New": "n"])
        #expect(merged.map(\.name) == ["Accept", "X-Trace", "X-New"])
        #expect(merged["Accept"] == "application/json")
    }

    @Test("Helpers write the common headers")
    func helpers() {
        var headers = HTTPHeaders()
        headers.contentType = "application/json"
        headers.accept = "application/json"
        #expect(headers["Content-Type"] == "application/json")
        #expect(headers["Accept"] == "application/json")
        headers.setBasicAuthorization(username: "user", password: "pässword")
        let expected = "Basic " + Data("user:pässword".utf8).base64EncodedString()
        #expect(headers.authorization == expected)
        #expect(headers.count == 3)
        #expect(HTTPHeader.basicAuthorization(username: "Aladdin", password: "open sesame").value == "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
        #expect(HTTPHeader.accept("text/csv") == HTTPHeader(name: "Accept", value: "text/csv"))
    }

    @Test("The dictionary view and description list every field")
    func views() {
        let headers: HTTPHeaders = ["A": "1", "B": "2"]
        #expect(headers.dictionary == ["A": "1", "B": "2"])
        #expect(headers.description == "A: 1\nB: 2")
    }
}
