import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Encodes parameters as a JSON object body (``BodyEncoding/json``), `Content-Type: application/json`
/// unless the request has one.
///
/// Keys are sorted by their UTF-8 bytes so the body is deterministic; `nil` values become `null`; slashes and
/// non-ASCII text are written as they are. Non-finite numbers and unsupported types fail
/// with ``APIError/encodingFailed(_:)`` naming the key, never a trap.
struct JSONParameterEncoder: Hashable, Sendable {
    /// The `Content-Type` set when the request has none.
    static let contentType = "application/json"

    /// Returns `request` with `parameters` as its JSON body.
    func encode(_ parameters: Parameters, into request: URLRequest) throws(APIError) -> URLRequest {
        var request = request
        request.httpBody = try Self.data(for: parameters)
        request.setContentTypeIfMissing(Self.contentType)
        return request
    }

    /// The JSON text for `parameters`.
    static func data(for parameters: Parameters) throws(APIError) -> Data {
        var writer = JSONWriter()
        try writer.write(object: parameters, keyPath: { "" })
        return Data(writer.output)
    }
}

/// A small JSON writer over ``ParameterKind`` (RFC 8259), so that what can be encoded is
/// decided by one classification for queries, forms and JSON alike.
private struct JSONWriter {
    var output: [UInt8] = []

    // `keyPath` names a value in errors; it is only called when there is one, so the happy path
    // builds no key path strings.
    mutating func write(object: Parameters, keyPath: () -> String) throws(APIError) {
        output.append(UInt8(ascii: "{"))
        for (index, (key, value)) in object.sortedByKey.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            writeString(key)
            output.append(UInt8(ascii: ":"))
            try write(
                value,
                keyPath: {
                    let parent = keyPath()
                    return parent.isEmpty ? key : "\(parent).\(key)"
                })
        }
        output.append(UInt8(ascii: "}"))
    }

    mutating func write(_ value: Any, keyPath: () -> String) throws(APIError) {
        guard let kind = ParameterKind(value) else {
            throw ParameterKind.unsupported(value, at: keyPath())
        }
        switch kind {
        case .null: output += "null".utf8
        case .bool(let bool): output += (bool ? "true" : "false").utf8
        case .number(let number): output += number.utf8
        case .string(let string): writeString(string)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                try write(element, keyPath: { "\(keyPath())[\(index)]" })
            }
            output.append(UInt8(ascii: "]"))
        case .dictionary(let dictionary):
            try write(object: dictionary, keyPath: keyPath)
        }
    }

    private mutating func writeString(_ string: String) {
        output.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output += #"\""#.utf8
            case UInt8(ascii: "\\"): output += #"\\"#.utf8
            case 0x0A: output += #"\n"#.utf8
            case 0x0D: output += #"\r"#.utf8
            case 0x09: output += #"\t"#.utf8
            case 0x08: output += #"\b"#.utf8
            case 0x0C: output += #"\f"#.utf8
            case 0x00..<0x20:
                output += #"\u00"#.utf8
                output.append(Self.hexDigits[Int(byte >> 4)])
                output.append(Self.hexDigits[Int(byte & 0x0F)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
