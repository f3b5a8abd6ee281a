import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one line `movies` prints for a call that failed, saying what a user can act on.
enum FailureMessage {
    /// The longest excerpt of an error page that is not JSON, in characters.
    static let excerptLength = 80

    /// The message for `error`, which `call` through `client` ended with (without the API key).
    static func text(for error: APIError, call: MovieAPI, client: MovieClient) -> String {
        switch error {
        case .timedOut:
            let url = (try? call.urlRequest(baseURL: client.configuration.baseURL).url?.absoluteString) ?? client.environment.baseURL
            return "no answer from \(url) within \(seconds(client.timeout)); wait longer with --timeout <seconds>"
        case .unacceptableStatusCode(let code, let response) where !isJSON(response):
            let type = response.headers["Content-Type"] ?? "no content type"
            let head = "The server answered \(code) \(reasonPhrase(code)) with \(type), \(response.body.count) bytes"
            let excerpt = excerpt(of: response.body)
            return excerpt.isEmpty ? head : "\(head): \(excerpt)"
        default:
            return error.description
        }
    }

    /// `30 s`, `2.5 s`.
    static func seconds(_ value: TimeInterval) -> String {
        String(format: "%g s", value)
    }

    /// Whether the response says it is JSON, TMDB's own error format, which is short and worth reading whole.
    private static func isJSON(_ response: HTTPResponse) -> Bool {
        guard let type = response.headers["Content-Type"]?.lowercased() else { return false }
        return type.hasPrefix("application/json") || type.contains("+json")
    }

    /// The start of the body as one line: whitespace runs made single spaces, cut at ``excerptLength``.
    private static func excerpt(of body: Data) -> String {
        let text = String(decoding: body.prefix(4096), as: UTF8.self)
        let words = text.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
        return words.count > excerptLength || body.count > 4096 ? String(words.prefix(excerptLength)) + "…" : words
    }

    /// `Not Found` for 404, as the library writes it.
    private static func reasonPhrase(_ code: Int) -> String {
        HTTPURLResponse.localizedString(forStatusCode: code).split(separator: " ")
            .map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
    }
}
