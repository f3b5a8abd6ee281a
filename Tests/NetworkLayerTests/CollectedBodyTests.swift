import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if AsyncHTTPClient
    import NIOHTTP1
#endif

/// How a collected body holds its chunks: the memory bound itself is `ResponseLimitMemoryTests`'.
@Suite("A collected body")
struct CollectedBodyTests {
    /// The address of `data`'s bytes.
    static func address(of data: Data) -> UnsafeRawPointer? {
        data.withUnsafeBytes { UnsafeRawPointer($0.baseAddress) }
    }

    /// Chunks of 1, 2, …, `count` bytes, each of its own byte value.
    static func chunks(_ count: Int) -> [Data] {
        (1...count).map { Data(repeating: UInt8($0), count: $0) }
    }

    @Test("A body in one chunk is that chunk, not a copy, and its announced length is never read")
    func oneChunk() {
        let chunk = Data(repeating: 7, count: 4096)
        var reads = 0
        func length() -> Int64? {
            reads += 1
            return 4096
        }
        var body = CollectedBody()
        body.append(chunk, announcedLength: length())
        let taken = body.take()
        #expect(taken == chunk)
        #expect(Self.address(of: taken) == Self.address(of: chunk))
        #expect(reads == 0)
    }

    @Test("The announced length is read once, at the second chunk, whether chunks or bytes come", arguments: [false, true])
    func lengthReadOnce(asBytes: Bool) {
        var reads = 0
        func length() -> Int64? {
            reads += 1
            return 55
        }
        var body = CollectedBody()
        for (index, chunk) in Self.chunks(10).enumerated() {
            if asBytes {
                chunk.withUnsafeBytes { body.append($0, announcedLength: length()) }
            } else {
                body.append(chunk, announcedLength: length())
            }
            #expect(reads == (index == 0 ? 0 : 1))
        }
        #expect(body.take() == Self.chunks(10).reduce(Data(), +))
    }

    @Test(
        "Chunks come out joined in their order, the length announced, unknown, wrong or capped by the limit",
        arguments: [(nil, nil), (55, nil), (10, nil), (1000, nil), (55, 20), (-1, nil)] as [(Int64?, Int64?)])
    func joined(length: Int64?, limit: Int64?) {
        let chunks = Self.chunks(10)
        var body = CollectedBody(limit: limit)
        for chunk in chunks { body.append(chunk, announcedLength: length) }
        #expect(body.count == 55)
        #expect(body.take() == chunks.reduce(Data(), +))
    }

    @Test("Bytes are copied in, and an empty chunk adds nothing", arguments: [nil, 55] as [Int64?])
    func bytes(length: Int64?) {
        let chunks = Self.chunks(10)
        var body = CollectedBody()
        body.append(Data(), announcedLength: length)
        for chunk in chunks {
            chunk.withUnsafeBytes { body.append($0, announcedLength: length) }
            body.append(UnsafeRawBufferPointer(start: nil, count: 0), announcedLength: length)
        }
        #expect(body.count == 55)
        #expect(body.take() == chunks.reduce(Data(), +))
    }

    @Test("A body of announced length is one buffer, never joined; one of unknown length is joined at its end")
    func layout() {
        for length in [55, nil] as [Int64?] {
            var body = CollectedBody()
            for chunk in Self.chunks(10) { body.append(chunk, announcedLength: length) }
            // Both held at once, so that the second cannot take the first's freed memory.
            let (first, second) = (body.joined(), body.joined())
            #expect(first == Self.chunks(10).reduce(Data(), +))
            #expect(
                (Self.address(of: first) == Self.address(of: second)) == (length != nil), "announced length \(String(describing: length))")
        }
    }

    @Test("Taking the body leaves an empty one behind")
    func takeEmpties() {
        var body = CollectedBody()
        for chunk in Self.chunks(3) { body.append(chunk, announcedLength: nil) }
        #expect(body.count == 6)
        #expect(body.take().count == 6)
        #expect(body.count == 0)
        #expect(body.take().isEmpty)
    }

    @Test("A body past its reservation grows on and comes out whole")
    func pastReservation() {
        var body = CollectedBody(limit: 10)
        for chunk in Self.chunks(10) { body.append(chunk, announcedLength: 55) }
        #expect(body.take() == Self.chunks(10).reduce(Data(), +))
    }

    @Test(
        "Only a body sent as it is has an announced length: not a gzip or deflate one, whose length is the encoded one",
        arguments: TransportKind.all)
    func announcedLength(transport: TransportKind) throws {
        let cases: [(encoding: String?, length: Int64?)] = [(nil, 1000), ("identity", 1000), (" ", 1000), ("gzip", nil), ("deflate", nil)]
        for (encoding, expected) in cases {
            var fields = ["Content-Length": "1000"]
            if let encoding { fields["Content-Encoding"] = encoding }
            let url = try #require(URL(string: "https://example.com/"))
            let response = try #require(HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: fields))
            #expect(HTTPResponse(response, body: Data()).announcedLength == expected, "\(String(describing: encoding))")
            switch transport {
            case .urlSession:
                #expect(SessionTaskHandler.announcedLength(of: response) == expected, "\(String(describing: encoding))")
            #if AsyncHTTPClient
                case .asyncHTTPClient:
                    let head = HTTPResponseHead(version: .http1_1, status: .ok, headers: HTTPHeaders(fields.map { ($0.key, $0.value) }))
                    #expect(AsyncHTTPClientExchange.announcedLength(of: head) == expected, "\(String(describing: encoding))")
            #endif
            }
        }
    }
}
