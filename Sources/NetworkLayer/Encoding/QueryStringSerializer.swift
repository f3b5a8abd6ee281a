/// Writes ``Parameters`` as `application/x-www-form-urlencoded` text, shared by the query and form encoders.
///
/// Keys are sorted at every level, dictionaries nest as `key[sub]=v`, arrays follow
/// ``ArrayEncoding``, `nil` values are omitted, and every byte outside the RFC 3986
/// unreserved set is percent-encoded, brackets included.
struct QueryStringSerializer {
    var arrayEncoding: ArrayEncoding
    var boolEncoding: BoolEncoding

    /// The encoded pairs joined with `&`, as UTF-8 bytes.
    func serialize(_ parameters: Parameters) throws(APIError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(parameters.count * 24)
        for (key, value) in parameters.sortedByKey {
            var name: [UInt8] = []
            PercentEncoding.appendEscaped(key, to: &name)
            try append(value, name: name, keyPath: key, to: &output)
        }
        return output
    }

    /// The encoded pairs as a string.
    func string(from parameters: Parameters) throws(APIError) -> String {
        String(decoding: try serialize(parameters), as: UTF8.self)
    }

    private static let openBracket = Array("%5B".utf8)
    private static let closeBracket = Array("%5D".utf8)

    /// Appends `value` under the already-escaped `name`; `keyPath` names it in errors.
    private func append(_ value: Any, name: [UInt8], keyPath: String, to output: inout [UInt8]) throws(APIError) {
        guard let kind = ParameterValue(value) else {
            throw ParameterValue.unsupported(value, at: keyPath)
        }
        switch kind {
        case .null:
            return
        case .bool(let bool):
            switch boolEncoding {
            case .literal: appendPair(name, bool ? "true" : "false", to: &output)
            case .numeric: appendPair(name, bool ? "1" : "0", to: &output)
            }
        case .number(let number):
            appendPair(name, number, to: &output)
        case .string(let string):
            appendPair(name, string, to: &output)
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                var elementName = name
                switch arrayEncoding {
                case .brackets:
                    elementName += Self.openBracket + Self.closeBracket
                case .noBrackets:
                    break
                case .indexInBrackets:
                    elementName += Self.openBracket
                    elementName += String(index).utf8
                    elementName += Self.closeBracket
                }
                try append(element, name: elementName, keyPath: "\(keyPath)[\(index)]", to: &output)
            }
        case .dictionary(let dictionary):
            for (key, element) in dictionary.sortedByKey {
                var elementName = name + Self.openBracket
                PercentEncoding.appendEscaped(key, to: &elementName)
                elementName += Self.closeBracket
                try append(element, name: elementName, keyPath: "\(keyPath).\(key)", to: &output)
            }
        }
    }

    private func appendPair(_ name: [UInt8], _ value: String, to output: inout [UInt8]) {
        if !output.isEmpty { output.append(UInt8(ascii: "&")) }
        output += name
        output.append(UInt8(ascii: "="))
        PercentEncoding.appendEscaped(value, to: &output)
    }
}
