import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request as built (its `timeoutInterval` the idle timeout), with what sending it takes besides:
/// the upload that goes beside it, the statuses it accepts, the decoder of its body and how large that body may grow.
/// Every verb starts from one.
struct Call: Sendable {
    /// The request, with its body when the body is in memory.
    var request: URLRequest
    /// A body streamed beside the request (a file or a form), or `nil`.
    var upload: UploadBody?
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
    /// The endpoint's own check of the response, run before the client's; `nil` for none.
    var validateResponse: (@Sendable (HTTPResponse) throws -> Void)? = nil
    /// The client's interceptors.
    var interceptors: [any Interceptor] = []
    /// The client's check of every response (``ClientConfiguration/validate``); `nil` for none.
    var validate: (@Sendable (HTTPResponse) throws -> Void)? = nil
}

extension APIClient {
    /// The call `endpoint` describes: built against the configuration's base URL with its encoder and
    /// timeout, with its options merged with the configuration.
    func makeCall(for endpoint: some Endpoint) throws(APIError) -> Call {
        let configuration = configuration
        let options = endpoint.options
        let (request, upload) = try endpoint.builtRequest(
            baseURL: configuration.baseURL, encoder: configuration.encoder, timeout: options.timeout ?? configuration.timeout)
        return Self.makeCall(request, upload: upload, options: options, configuration: configuration)
    }

    /// The call of a request built by hand, with its own timeout and the configuration's other settings.
    func makeCall(for request: URLRequest) -> Call {
        Self.makeCall(request, upload: nil, options: CallOptions(), configuration: configuration)
    }

    /// The one place a call's options meet the client's configuration: each option set wins.
    private static func makeCall(
        _ request: URLRequest, upload: UploadBody?, options: CallOptions, configuration: ClientConfiguration
    ) -> Call {
        Call(
            request: request,
            upload: upload,
            acceptableStatusCodes: options.acceptableStatusCodes ?? configuration.acceptableStatusCodes,
            decoder: options.decoder ?? configuration.decoder,
            redirectPolicy: options.redirectPolicy ?? configuration.redirectPolicy,
            deadline: options.deadline ?? configuration.deadline,
            responseLimits: options.responseLimits ?? configuration.responseLimits,
            requiresAuthentication: options.requiresAuthentication,
            validateResponse: options.validateResponse,
            interceptors: configuration.interceptors(for: options),
            validate: configuration.validate
        )
    }

    /// Decodes `response`'s body as `T` with the call's decoder: `Empty`, `Data`, `String` and optionals handled specially.
    func decode<T: Decodable>(_ type: T.Type, from response: HTTPResponse, for call: Call) throws(APIError) -> T {
        try ResponseDecoding.decode(type, from: response.body, using: call.decoder)
    }
}
