import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Link headers (RFC 8288)")
struct LinkHeaderTests {
    private static func url(_ text: String) throws -> URL { try #require(URL(string: text)) }

    @Test("The RFC's examples: relations, parameters, extended parameters and URIs as relations")
    func rfcExamples() throws {
        let base = try Self.url("http://example.com/TheBook/chapter3")
        let previous = HTTPLink.parse(#"<http://example.com/TheBook/chapter2>; rel="previous"; title="previous chapter""#)
        #expect(
            previous == [
                HTTPLink(
                    target: try Self.url("http://example.com/TheBook/chapter2"), relations: ["previous"],
                    parameters: ["rel": "previous", "title": "previous chapter"])
            ])
        #expect(HTTPLink.parse(#"</>; rel="http://example.net/foo""#, relativeTo: base).map(\.relations) == [["http://example.net/foo"]])
        #expect(
            HTTPLink.parse(#"</>; rel="http://example.net/foo""#, relativeTo: base).first?.target.absoluteString == "http://example.com/")
        let anchored = HTTPLink.parse(##"</terms>; rel="copyright"; anchor="#foo""##, relativeTo: base)
        #expect(anchored.first?.parameters["anchor"] == "#foo")
        let chapters = HTTPLink.parse(
            #"</TheBook/chapter2>; rel="previous"; title*=UTF-8'de'letztes%20Kapitel, "#
                + #"</TheBook/chapter4>; rel="next"; title*=UTF-8'de'n%c3%a4chstes%20Kapitel"#, relativeTo: base)
        #expect(chapters.map(\.target.absoluteString) == ["http://example.com/TheBook/chapter2", "http://example.com/TheBook/chapter4"])
        #expect(chapters.map(\.relations) == [["previous"], ["next"]])
        #expect(chapters.last?.parameters["title*"] == "UTF-8'de'n%c3%a4chstes%20Kapitel")
        let start = HTTPLink.parse(#"<http://example.org/>; rel="start http://example.net/relation/other""#)
        #expect(start.first?.relations == ["start", "http://example.net/relation/other"])
        let two = HTTPLink.parse(#"<https://example.org/>; rel="start", <https://example.org/index>; rel="index""#)
        #expect(two.map(\.relations) == [["start"], ["index"]])
    }

    @Test("A response's links: relative targets against its URL, rel compared case-insensitively")
    func responseLinks() throws {
        let response = HTTPResponse(
            statusCode: 200,
            // Foundation joins repeated Link fields with ", ", as HTTP allows for a list.
            headers: ["Link": #"</notes?page=2>; REL=Next, <?page=9>;rel="last", <https://cdn.example.com/first>; rel=first"#],
            url: try Self.url("https://api.example.com/v1/notes?page=1"))
        #expect(response.link("next")?.absoluteString == "https://api.example.com/notes?page=2")
        #expect(response.link("NEXT") == response.link("next"))
        #expect(response.link("last")?.absoluteString == "https://api.example.com/v1/notes?page=9")
        #expect(response.link("first")?.absoluteString == "https://cdn.example.com/first")
        #expect(response.link("prev") == nil)
        #expect(HTTPResponse(statusCode: 200).links.isEmpty)
        #expect(HTTPLink.parse("<>; rel=self", relativeTo: response.url).first?.target == response.url, "an empty reference is the base")
    }

    @Test("Commas and semicolons inside <…> and quoted strings belong to them; quoted escapes are undone")
    func separatorsInside() throws {
        let links = HTTPLink.parse(
            #"<https://e.com/a,b;c>; rel="next"; title="one, two; \"three\"", <https://e.com/d>; rel=prev"#)
        #expect(links.map(\.target.absoluteString) == ["https://e.com/a,b;c", "https://e.com/d"])
        #expect(links.first?.parameters["title"] == #"one, two; "three""#)
        #expect(links.map(\.relations) == [["next"], ["prev"]])
        let firstRelWins = HTTPLink.parse(#"<https://e.com/x>; rel=next; rel=prev; hreflang"#)
        #expect(firstRelWins.first?.relations == ["next"])
        #expect(firstRelWins.first?.parameters["hreflang"] == "")
    }

    @Test(
        "Malformed links are skipped up to the next link, never a crash",
        arguments: [
            ("", [String]()),
            (",,, ,", []),
            ("<https://e.com/a", []),
            (#"https://e.com/a; rel=next, <https://e.com/b>; rel=next"#, ["https://e.com/b"]),
            (#"<https://e.com/a>; rel="next, <https://e.com/b>; rel=next"#, ["https://e.com/a"]),
            (#"<https://e.com/a> junk; rel=next, <https://e.com/b>"#, ["https://e.com/b"]),
            (#"<https://e.com/a>; (rel)=next, <https://e.com/b>"#, ["https://e.com/b"]),
            (#"<https://e.com/a>; rel=next; ;;; =x, <https://e.com/b>"#, ["https://e.com/a", "https://e.com/b"]),
            (#"<>; rel=self"#, []),
            ("<https://e.com/\u{00E9}>; rel=next, \u{1F600}, <https://e.com/c>", ["https://e.com/%C3%A9", "https://e.com/c"]),
        ])
    func malformed(value: String, targets: [String]) {
        #expect(HTTPLink.parse(value).map(\.target.absoluteString) == targets)
    }

    @Test(
        "A 1 MB header of hostile shapes is read in one pass",
        arguments: ["<", ";", "\"", ",", "<a>;", "<a>; rel=", "<a>; rel=\"", "<<<<>", "; rel=next"])
    func megabyte(unit: String) throws {
        let value = String(repeating: unit, count: 1_000_000 / unit.utf8.count)
        let stopwatch = Stopwatch()
        let links = HTTPLink.parse(value, relativeTo: try Self.url("https://e.com/"))
        // Quadratic work on a megabyte takes hours; one pass takes milliseconds.
        #expect(stopwatch.seconds < 20, "\(links.count) links")
        #expect(links.count <= value.utf8.count)
    }
}
