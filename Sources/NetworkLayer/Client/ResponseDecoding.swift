import Foundation

/// Turns a body into the caller's type, with the special cases every client needs.
enum ResponseDecoding {
    /// Decodes `body` as `T`.
    ///
    /// - ``Empty`` ignores the body; `Data` returns it as received; `String` returns its UTF-8 text
    ///   (and their optionals likewise).
    /// - An empty body decodes as `nil` for an optional `T`, and fails with ``APIError/invalidData`` otherwise.
    /// - Other failures are ``APIError/decodingFailed(_:body:error:)`` naming the type and coding path.
    static func decode<T: Decodable>(_ type: T.Type, from body: Data, using decoder: JSONDecoder) throws(APIError) -> T {
        if T.self == Empty.self || T.self == Empty?.self, let empty = Empty() as? T { return empty }
        if body.isEmpty, let optional = T.self as? any ExpressibleByNilLiteral.Type,
            let none = optional.init(nilLiteral: ()) as? T
        {
            return none
        }
        if T.self == Data.self || T.self == Data?.self, let data = body as? T { return data }
        if T.self == String.self || T.self == String?.self {
            guard let text = String(data: body, encoding: .utf8), let value = text as? T else {
                let error = DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "the body is not valid UTF-8"))
                throw .decodingFailed("String: the body is not valid UTF-8", body: body, error: error)
            }
            return value
        }
        if body.isEmpty { throw .invalidData }
        do {
            return try decoder.decode(T.self, from: body)
        } catch let error as DecodingError {
            throw .decodingFailed(error.summary(decoding: T.self), body: body, error: error)
        } catch {
            throw .decodingFailed("\(T.self): \(APIError.reason(error))", body: body, error: error)
        }
    }
}
