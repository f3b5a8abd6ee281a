import Foundation
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Protocol text read as bytes or Unicode scalars, never as Swift `Character`s: a delimiter followed
/// by a combining mark is still a delimiter, and text that only looks the same is different text.
@Suite("Protocol text as bytes")
struct ProtocolTextTests {
    @Test("A redacted query name stays redacted when its [ suffix starts with a combining mark")
    func redactionCutsOnBytes() throws {
        // token[\u{301}]=secret: "[" and U+0301 are one Character, but the name is still "token".
        let request = URLRequest(url: try #require(URL(string: "https://h.test/x?token%5B%CC%81%5D=secret&a=1")))
        let text = request.cURLDescription(redacting: .default)
        #expect(!text.contains("secret"), "\(text)")
        #expect(text.contains("token%5B%CC%81%5D=<redacted>&a=1"))
    }

    @Test("Header fields are equal when they are the same bytes, not merely the same text")
    func headerEquality() {
        let precomposed = HTTPHeader(name: "X-Name", value: "caf\u{E9}")
        let decomposed = HTTPHeader(name: "X-Name", value: "cafe\u{301}")
        #expect(precomposed != decomposed)
        #expect(Set([precomposed, decomposed]).count == 2)
        #expect(HTTPHeaders([precomposed]) != HTTPHeaders([decomposed]))
    }
}
