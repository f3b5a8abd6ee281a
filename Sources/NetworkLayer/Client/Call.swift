import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request as built, with what sending it takes besides: the upload that goes beside it, its
/// timeout, the statuses it accepts, the decoder of its body and how large that body may grow.
/// Every verb starts from one.
struct Call: Sendable {
    /// The request, with its body when the body is in memory.
    var request: URLRequest
    /// A body streamed beside the request (a file or a form), or `nil`.
    var upload: UploadBody?
    /// The idle timeout, or `nil` for the transport's.
    var timeout: TimeInterval?
    /// The statuses that count as success: the endpoint's, else the client's.
    var acceptableStatusCodes: Set<Int>
    /// Decodes the body: the endpoint's, else the client's.
    var decoder: JSONDecoder
    /// How redirects are followed: the endpoint's, else the client's.
    var redirectPolicy: RedirectPolicy
    /// The total deadline in seconds: the endpoint's, else the client's; `nil` or `.infinity` for none.
    var deadline: TimeInterval?
    /// How large the response body may grow: the endpoint's, else the client's.
    var responseLimits: ResponseLimits
    /// Whether the client's authenticators authenticate it: the endpoint's; `true` for a request built by hand.
    var requiresAuthentication = true
    /// The endpoint's own check of the response, run before the client's ``APIClient/validate(_:)``; `nil` for none.
    var validateResponse: (@Sendable (HTTPResponse) throws -> Void)? = nil
}

extension APIClient {
    /// The call `endpoint` describes: built against ``baseURL`` with ``encoder``, with its options
    /// merged with this client's settings.
    func makeCall(for endpoint: some Endpoint) throws(APIError) -> Call {
        let options = endpoint.options
        let (request, upload) = try endpoint.builtRequest(baseURL: baseURL, encoder: encoder, timeout: options.timeout)
        // The built request keeps URLRequest's default unless the options set one: no need to read it back.
        return makeCall(request, upload: upload, timeout: options.timeout, options: options)
    }

    /// The call of a request built by hand, with this client's settings.
    func makeCall(for request: URLRequest) -> Call {
        makeCall(request, upload: nil, timeout: Self.timeout(of: request), options: CallOptions())
    }

    /// The one place a call's options meet the client's settings: each option set wins.
    private func makeCall(_ request: URLRequest, upload: UploadBody?, timeout: TimeInterval?, options: CallOptions) -> Call {
        Call(
            request: request,
            upload: upload,
            timeout: timeout,
            acceptableStatusCodes: options.acceptableStatusCodes ?? acceptableStatusCodes,
            decoder: options.decoder ?? decoder,
            redirectPolicy: options.redirectPolicy ?? redirectPolicy,
            deadline: options.deadline ?? deadline,
            responseLimits: options.responseLimits ?? responseLimits,
            requiresAuthentication: options.requiresAuthentication,
            validateResponse: options.validateResponse
        )
    }

    /// Decodes `response`'s body as `T` with the call's decoder: `Empty`, `Data`, `String` and optionals handled specially.
    func decode<T: Decodable>(_ type: T.Type, from response: HTTPResponse, for call: Call) throws(APIError) -> T {
        try ResponseDecoding.decode(type, from: response.body, using: call.decoder)
    }
}
