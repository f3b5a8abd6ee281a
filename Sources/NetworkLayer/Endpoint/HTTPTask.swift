import Foundation

/// How ``HTTPTask/requestParameters(bodyParameters:bodyEncoding:urlParameters:)`` encodes its body parameters.
public enum BodyEncoding: Sendable, Hashable {
    /// A JSON object, `Content-Type: application/json`.
    case json
    /// A form, `Content-Type: application/x-www-form-urlencoded; charset=utf-8`.
    case formURLEncoded
}

/// What a request carries besides its URL and headers: query parameters and a body.
///
/// A body is only allowed for methods that take one: building a `GET` or `HEAD` request
/// with a body fails with ``APIError/invalidRequest(_:)`` instead of sending it.
///
/// A task is `Sendable`, and so is an endpoint that holds one: ``Parameters`` are, and
/// ``requestJSONBody(_:urlParameters:)`` takes a `Sendable` value.
public enum HTTPTask: Sendable {
    /// No parameters and no body.
    case request

    /// Body parameters encoded as ``BodyEncoding`` (JSON by default) and URL parameters in the query.
    ///
    /// `nil` means "none"; an empty dictionary still produces an (empty) body.
    case requestParameters(
        bodyParameters: Parameters? = nil,
        bodyEncoding: BodyEncoding = .json,
        urlParameters: Parameters? = nil
    )

    /// Like ``requestParameters(bodyParameters:bodyEncoding:urlParameters:)``, plus headers that
    /// are added on top of the endpoint's (their values win).
    case requestParametersAndHeaders(
        bodyParameters: Parameters? = nil,
        bodyEncoding: BodyEncoding = .json,
        urlParameters: Parameters? = nil,
        additionalHeaders: HTTPHeaders
    )

    /// An `Encodable` value as a JSON body, encoded with the client's `JSONEncoder`, and URL parameters in the query.
    case requestJSONBody(any Encodable & Sendable, urlParameters: Parameters? = nil)

    /// Raw bytes as the body, sent with the given `Content-Type` (it replaces one set in the endpoint's headers).
    case requestData(Data, contentType: String)

    /// A file on disk as the body, streamed from the file as it is sent (never read into memory
    /// whole), with its size as `Content-Length` and the given `Content-Type` (it replaces one set
    /// in the endpoint's headers); URL parameters go in the query.
    ///
    /// The body is attached when the endpoint is sent (with ``APIClient/send(_:as:)``,
    /// ``APIClient/fetch(_:as:)``, ``APIClient/response(for:progress:)`` or, to observe progress,
    /// ``APIClient/upload(for:as:progress:)``): the `URLRequest` that
    /// ``Endpoint/urlRequest(baseURL:encoder:)`` builds has its headers but no body. The file must exist
    /// when the request is sent, or it fails with ``APIError/invalidRequest(_:)``.
    case uploadFile(URL, contentType: String = "application/octet-stream", urlParameters: Parameters? = nil)

    /// A `multipart/form-data` body, sent with `Content-Type: multipart/form-data; boundary=…` (it
    /// replaces one set in the endpoint's headers); URL parameters go in the query.
    ///
    /// Like ``uploadFile(_:contentType:urlParameters:)``, the body is attached when the endpoint is
    /// sent: a small form in memory, a larger one written to a temporary file in chunks, streamed
    /// from it and deleted afterwards, so file parts never sit in memory whole.
    case uploadMultipart(MultipartFormData, urlParameters: Parameters? = nil)
}
