import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Gives every attempt of a ``MovieClient`` the client's idle timeout: an ``Interceptor`` that
/// adapts each request's `timeoutInterval` and nothing else.
public struct RequestTimeout: Interceptor {
    /// The seconds each request may stay idle.
    public let seconds: TimeInterval

    /// Creates an adapter that sets `seconds` as every request's timeout.
    public init(seconds: TimeInterval) {
        self.seconds = seconds
    }

    /// `request` with ``seconds`` as its timeout.
    public func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        var request = request
        request.timeoutInterval = seconds
        return request
    }
}
