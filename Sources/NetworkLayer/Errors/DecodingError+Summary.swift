/// Readable one-line summaries of decoding and encoding errors, naming the type and the coding path.
extension DecodingError {
    /// For example `MoviePage: key 'total_results' not found at results[3]`.
    func summary(decoding type: Any.Type) -> String {
        let name = String(describing: type)
        switch self {
        case .keyNotFound(let key, let context):
            return "\(name): key '\(key.stringValue)' not found\(context.codingPath.locationSuffix)"
        case .typeMismatch(let expected, let context):
            return "\(name): expected \(expected)\(context.codingPath.locationSuffix) (\(context.debugDescription))"
        case .valueNotFound(let expected, let context):
            return "\(name): expected \(expected) but found null\(context.codingPath.locationSuffix)"
        case .dataCorrupted(let context):
            let underlying = context.underlyingError.map { " (\($0))" } ?? ""
            return "\(name): \(context.debugDescription)\(context.codingPath.locationSuffix)\(underlying)"
        @unknown default:
            return "\(name): \(self)"
        }
    }
}

extension EncodingError {
    /// For example `Rating: invalid value at value (Unable to encode Double.nan directly in JSON.)`.
    func summary(encoding type: Any.Type) -> String {
        switch self {
        case .invalidValue(_, let context):
            "\(type): invalid value\(context.codingPath.locationSuffix) (\(context.debugDescription))"
        @unknown default:
            "\(type): \(self)"
        }
    }
}

extension [any CodingKey] {
    /// The path as `results[3].title`; empty at the top level.
    var dottedPath: String {
        var path = ""
        for key in self {
            if let index = key.intValue, key.stringValue == "Index \(index)" || key.stringValue == "\(index)" {
                path += "[\(index)]"
            } else {
                path += path.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return path
    }

    /// `" at results[3]"`, or nothing at the top level.
    var locationSuffix: String {
        isEmpty ? "" : " at \(dottedPath)"
    }
}
