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
        // truncates it back, so names cost no allocation of their own. A plain value at the top
        // writes its name straight to the output, and needs no buffer at all.
        var name: [UInt8] = []
        func add(_ key: String, _ value: any ParameterValue) throws(APIError) {
            guard let kind = ParameterKind(value) else {
                throw ParameterKind.unsupported(value, at: key)
            }
            switch kind {
            case .array, .dictionary:
                if name.capacity == 0 { name.reserveCapacity(64) }
                name.removeAll(keepingCapacity: true)
                PercentEncoding.appendEscaped(key, to: &name)
                try append(kind, name: &name, keyPath: { key }, to: &output)
            default:
                appendScalar(kind, to: &output) { output in PercentEncoding.appendEscaped(key, to: &output) }
            }
        }
        // One parameter needs no sorting, nor the sorted copy.
        if parameters.count == 1, let (key, value) = parameters.first {
            try add(key, value)
        } else {
            for (key, value) in parameters.sortedByKey { try add(key, value) }
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
        try append(kind, name: &name, keyPath: keyPath, to: &output)
    }

    /// Appends the value `kind` holds under the already-escaped `name`, which it leaves as it found it.
    private func append(
        _ kind: ParameterKind,
        name: inout [UInt8],
        keyPath: () -> String,
        to output: inout [UInt8]
    ) throws(APIError) {
        switch kind {
        case .null, .bool, .number, .string:
            appendScalar(kind, to: &output) { output in output += name }
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

    /// Appends the pair of a value that is not a collection, its name written by `writeName`; `nil` writes nothing.
    @inline(__always)
    private func appendScalar(_ kind: ParameterKind, to output: inout [UInt8], writeName: (inout [UInt8]) -> Void) {
        let value: String
        switch kind {
        case .null, .array, .dictionary: return
        case .bool(let bool):
            switch boolEncoding {
            case .literal: value = bool ? "true" : "false"
            case .numeric: value = bool ? "1" : "0"
            }
        case .number(let number): value = number
        case .string(let string): value = string
        }
        if !output.isEmpty { output.append(UInt8(ascii: "&")) }
        writeName(&output)
        output.append(UInt8(ascii: "="))
        PercentEncoding.appendEscaped(value, to: &output)
    }
}
