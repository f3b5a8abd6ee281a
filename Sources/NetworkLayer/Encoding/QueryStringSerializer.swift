/// Writes ``Parameters`` as `application/x-www-form-urlencoded` text, shared by the query and form encoders.
///
/// Keys are sorted by their UTF-8 bytes at every level, dictionaries nest as `key[sub]=v`, arrays follow
/// ``ArrayEncoding``, `nil` values are omitted, and every byte outside the RFC 3986
/// unreserved set is percent-encoded, brackets included.
struct QueryStringSerializer {
    var arrayEncoding: ArrayEncoding
    var boolEncoding: BoolEncoding

    /// The encoded pairs joined with `&`, as UTF-8 bytes.
    func serialize(_ parameters: Parameters) throws(APIError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(parameters.count * 24)
        // One buffer holds the escaped name of the pair being written; nesting appends to it and
        // truncates it back, so names cost no allocation of their own.
        var name: [UInt8] = []
        name.reserveCapacity(64)
        for (key, value) in parameters.sortedByKey {
            name.removeAll(keepingCapacity: true)
            PercentEncoding.appendEscaped(key, to: &name)
            try append(value, name: &name, keyPath: { key }, to: &output)
        }
        return output
    }

    /// The encoded pairs as a string.
    func string(from parameters: Parameters) throws(APIError) -> String {
        String(decoding: try serialize(parameters), as: UTF8.self)
    }

    private static let openBracket = Array("%5B".utf8)
    private static let closeBracket = Array("%5D".utf8)

    /// Appends `value` under the already-escaped `name`, which it leaves as it found it.
    /// `keyPath` names the value in errors; it is only called when there is one.
    private func append(
        _ value: Any,
        name: inout [UInt8],
        keyPath: () -> String,
        to output: inout [UInt8]
    ) throws(APIError) {
        guard let kind = ParameterKind(value) else {
            throw ParameterKind.unsupported(value, at: keyPath())
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
            let length = name.count
            for (index, element) in elements.enumerated() {
                switch arrayEncoding {
                case .brackets:
                    name += Self.openBracket
                    name += Self.closeBracket
                case .noBrackets:
                    break
                case .indexInBrackets:
                    name += Self.openBracket
                    name += String(index).utf8
                    name += Self.closeBracket
                }
                try append(element, name: &name, keyPath: { "\(keyPath())[\(index)]" }, to: &output)
                name.removeSubrange(length...)
            }
        case .dictionary(let dictionary):
            let length = name.count
            for (key, element) in dictionary.sortedByKey {
                name += Self.openBracket
                PercentEncoding.appendEscaped(key, to: &name)
                name += Self.closeBracket
                try append(element, name: &name, keyPath: { "\(keyPath()).\(key)" }, to: &output)
                name.removeSubrange(length...)
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
