import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The raw baseline: requests and queries built by hand with `URLComponents`, `URLQueryItem` and
/// `JSONSerialization`, the way an app without a networking layer would write them.
///
/// It follows the same conventions as the layer (keys sorted, `key[]=v` for arrays, `key[sub]=v`
/// for dictionaries, `true`/`false`) so both sides send the same parameters; the escaping is
/// Foundation's (`URLComponents` leaves `+`, `/` and `?` raw in a query, the layer escapes them).
public enum HandBuilt {
    /// `base` + `path` with `query` in the URL and `body` as JSON, the baseline of request building.
    public static func request(
        base: String,
        path: String,
        query: [String: Any],
        body: [String: Any],
        headers: [(name: String, value: String)]
    ) throws -> URLRequest {
        guard var components = URLComponents(string: base) else { throw URLError(.badURL) }
        components.path += path
        components.queryItems = queryItems(query)
        guard let url = components.url else { throw URLError(.badURL) }
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        for header in headers {
            request.setValue(header.value, forHTTPHeaderField: header.name)
        }
        request.httpBody = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        return request
    }

    /// The percent-encoded query for `parameters`, through `URLComponents.queryItems`.
    public static func query(_ parameters: [String: Any]) -> String {
        var components = URLComponents()
        components.queryItems = queryItems(parameters)
        return components.percentEncodedQuery ?? ""
    }

    /// The parameters flattened into query items, keys sorted at every level.
    public static func queryItems(_ parameters: [String: Any]) -> [URLQueryItem] {
        var items: [URLQueryItem] = []
        for key in parameters.keys.sorted() {
            append(parameters[key]!, name: key, to: &items)
        }
        return items
    }

    private static func append(_ value: Any, name: String, to items: inout [URLQueryItem]) {
        switch value {
        case let dictionary as [String: Any]:
            for key in dictionary.keys.sorted() {
                append(dictionary[key]!, name: "\(name)[\(key)]", to: &items)
            }
        case let array as [Any]:
            for element in array {
                append(element, name: "\(name)[]", to: &items)
            }
        case let bool as Bool:
            items.append(URLQueryItem(name: name, value: bool ? "true" : "false"))
        default:
            items.append(URLQueryItem(name: name, value: "\(value)"))
        }
    }
}
