import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `URLProtocol` behind ``StubSession``: it answers every request of its session from that session's stubs.
///
/// `URLSession` creates protocol instances itself and tells them nothing about their session,
/// so each stub session gets a distinct subclass (see ``StubProtocolClass``) whose class
/// property names the session. No global list of stubs exists.
class StubURLProtocol: URLProtocol {
    /// The ID of the ``StubSession`` this class serves; each subclass overrides it.
    class var stubSessionID: UInt64 { 0 }

    /// Whether `stopLoading` came: a delayed answer is then not delivered.
    private let isStopped = Locked(false)

    override class func canInit(with request: URLRequest) -> Bool { true }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        let stubs = StubRegistry.session(id: Self.stubSessionID)
        let answer =
            stubs?.respond(to: request)
            ?? .failure(URLError(.resourceUnavailable, userInfo: [NSLocalizedDescriptionKey: "The StubSession was released"]))
        guard answer.delay > 0 else {
            deliver(answer)
            return
        }
        // The protocol instance is not Sendable; it is only touched again on delivery,
        // which `stopLoading` cancels.
        nonisolated(unsafe) let instance = self
        let isStopped = isStopped
        DispatchQueue.global().asyncAfter(deadline: .now() + answer.delay) {
            if !isStopped.withLock({ $0 }) { instance.deliver(answer) }
        }
    }

    override func stopLoading() {
        isStopped.withLock { $0 = true }
    }

    private func deliver(_ answer: StubResponse) {
        guard let client else { return }
        if let error = answer.error {
            client.urlProtocol(self, didFailWithError: error)
            return
        }
        guard
            let url = request.url,
            let response = HTTPURLResponse(
                url: url,
                statusCode: answer.statusCode,
                httpVersion: "HTTP/1.1",
                headerFields: answer.headers.dictionary
            )
        else {
            client.urlProtocol(self, didFailWithError: URLError(.badServerResponse))
            return
        }
        client.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        for chunk in answer.chunks ?? [answer.body] where !chunk.isEmpty {
            client.urlProtocol(self, didLoad: chunk)
        }
        client.urlProtocolDidFinishLoading(self)
    }
}

/// Makes a distinct ``StubURLProtocol`` subclass for each stub session ID.
///
/// The ID is spelled in binary as a chain of generic types (`Bit1<Bit0<Bit1<Root>>>` for 5),
/// and `Tagged<Chain>` is the subclass; generic instantiation makes a new class for each chain
/// at run time, on Linux and Apple platforms alike.
enum StubProtocolClass {
    static func make(for id: UInt64) -> StubURLProtocol.Type {
        var tag: any StubTag.Type = Root.self
        for shift in stride(from: 63, through: 0, by: -1) where id >> UInt64(shift) != 0 {
            tag = (id >> UInt64(shift)) & 1 == 1 ? appendingOne(tag) : appendingZero(tag)
        }
        return tagged(tag)
    }

    private static func appendingZero<T: StubTag>(_: T.Type) -> any StubTag.Type { Bit0<T>.self }
    private static func appendingOne<T: StubTag>(_: T.Type) -> any StubTag.Type { Bit1<T>.self }
    private static func tagged<T: StubTag>(_: T.Type) -> StubURLProtocol.Type { Tagged<T>.self }

    private final class Tagged<Tag: StubTag>: StubURLProtocol {
        override class var stubSessionID: UInt64 { Tag.value }
    }
}

/// A type-level binary number.
protocol StubTag {
    static var value: UInt64 { get }
}

private enum Root: StubTag {
    static var value: UInt64 { 0 }
}

private enum Bit0<Rest: StubTag>: StubTag {
    static var value: UInt64 { Rest.value << 1 }
}

private enum Bit1<Rest: StubTag>: StubTag {
    static var value: UInt64 { Rest.value << 1 | 1 }
}
