import Foundation

/// One HTTP header field: a name and its value.
///
/// Two fields are equal when their names and values are the same bytes (header text is bytes, so
/// a precomposed `é` and `e` with a combining accent are different values).
public struct HTTPHeader: Hashable, Sendable {
    /// The field name as given, for example `"Content-Type"`; compared case-insensitively.
    public let name: String
    /// The field value, for example `"application/json"`.
    public let value: String

    /// Creates a header field from a name and a value.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Whether the names and the values are the same bytes.
    public static func == (lhs: HTTPHeader, rhs: HTTPHeader) -> Bool {
        lhs.name.utf8.elementsEqual(rhs.name.utf8) && lhs.value.utf8.elementsEqual(rhs.value.utf8)
    }

    /// Hashes the name's and the value's bytes, consistent with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        for text in [name, value] {
            hasher.combine(text.utf8.count)
            for byte in text.utf8 { hasher.combine(byte) }
        }
    }
}

/// An ordered collection of HTTP header fields with case-insensitive names.
///
/// Lookup ignores case (`headers["content-type"]` finds `Content-Type`), and setting a
/// name that is already present replaces its value in place instead of adding a
/// duplicate, so each name appears once and the original order is kept.
public struct HTTPHeaders: Hashable, Sendable {
    private var fields: [HTTPHeader] = []

    /// Creates an empty set of headers.
    public init() {}

    /// Creates headers from fields in order; a later field replaces an earlier one of the same name.
    public init(_ fields: [HTTPHeader]) {
        for field in fields { add(field) }
    }

    /// Headers from fields sorted by their lowercased names (`key`), without a lookup per field:
    /// of names equal but for case, the first is kept with the last value, as ``add(_:)`` would.
    init(sortedByName keyed: [(key: String, field: HTTPHeader)]) {
        fields.reserveCapacity(keyed.count)
        var previousKey: String?
        for (key, field) in keyed {
            if key == previousKey, let last = fields.indices.last {
                fields[last] = HTTPHeader(name: fields[last].name, value: field.value)
            } else {
                fields.append(field)
            }
            previousKey = key
        }
    }

    /// The value for `name` (any case), or `nil`; assigning `nil` removes the field.
    public subscript(name: String) -> String? {
        get { index(of: name).map { fields[$0].value } }
        set {
            if let newValue {
                add(HTTPHeader(name: name, value: newValue))
            } else {
                remove(name: name)
            }
        }
    }

    /// Adds a field, replacing the value of an existing field with the same name (any case) in place.
    public mutating func add(_ field: HTTPHeader) {
        if let index = index(of: field.name) {
            fields[index] = HTTPHeader(name: fields[index].name, value: field.value)
        } else {
            fields.append(field)
        }
    }

    /// Adds or replaces the field `name` with `value`.
    mutating func add(name: String, value: String) {
        add(HTTPHeader(name: name, value: value))
    }

    /// Removes the field `name` (any case) if present.
    mutating func remove(name: String) {
        if let index = index(of: name) { fields.remove(at: index) }
    }

    /// Returns these headers with every field of `other` added on top (its values win).
    func merging(_ other: HTTPHeaders) -> HTTPHeaders {
        var merged = self
        for field in other.fields { merged.add(field) }
        return merged
    }

    /// Whether a field named `name` (any case) is present.
    func contains(name: String) -> Bool {
        index(of: name) != nil
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// The fields as a dictionary keyed by name as given, for APIs that take `[String: String]`.
    public var dictionary: [String: String] {
        Dictionary(fields.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    private func index(of name: String) -> Int? {
        fields.firstIndex { $0.name.caseInsensitiveEquals(name) }
    }

    /// Whether `byte` may appear in an RFC 9110 token (header names, methods).
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// The first field that could not be sent as written: a name that is not a token, or a value with CR, LF or NUL.
    var firstInvalidField: HTTPHeader? {
        fields.first { field in
            field.name.isEmpty || !field.name.utf8.allSatisfy(Self.isTokenByte)
                || field.value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
        }
    }
}

extension HTTPHeaders: ExpressibleByDictionaryLiteral {
    /// Creates headers from a literal, in the order written: `["Accept": "application/json"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { add(name: name, value: value) }
    }
}

extension HTTPHeaders: Sequence {
    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[HTTPHeader]> {
        fields.makeIterator()
    }
}

extension HTTPHeaders: CustomStringConvertible {
    /// The fields one per line as `Name: value`.
    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }
}

extension HTTPHeaders {
    /// The `Content-Type` field.
    var contentType: String? {
        get { self["Content-Type"] }
        set { self["Content-Type"] = newValue }
    }

    /// The `Accept` field.
    var accept: String? {
        get { self["Accept"] }
        set { self["Accept"] = newValue }
    }

    /// The `Authorization` field.
    var authorization: String? {
        get { self["Authorization"] }
        set { self["Authorization"] = newValue }
    }

    /// Sets `Authorization: Basic <base64(username:password)>` as in RFC 7617 (UTF-8 credentials).
    mutating func setBasicAuthorization(username: String, password: String) {
        add(.basicAuthorization(username: username, password: password))
    }
}

extension HTTPHeader {
    /// `Content-Type: <value>`.
    static func contentType(_ value: String) -> HTTPHeader {
        HTTPHeader(name: "Content-Type", value: value)
    }

    /// `Accept: <value>`.
    static func accept(_ value: String) -> HTTPHeader {
        HTTPHeader(name: "Accept", value: value)
    }

    /// `Authorization: Basic <base64(username:password)>` (RFC 7617, UTF-8).
    public static func basicAuthorization(username: String, password: String) -> HTTPHeader {
        let credential = Data("\(username):\(password)".utf8).base64EncodedString()
        return HTTPHeader(name: "Authorization", value: "Basic \(credential)")
    }
}

extension String {
    /// ASCII case-insensitive equality, without allocating (header names are ASCII tokens).
    func caseInsensitiveEquals(_ other: String) -> Bool {
        // The counts are stored: most names that differ are told apart without reading a byte.
        utf8.count == other.utf8.count && utf8.bytesEqualIgnoringASCIICase(other.utf8)
    }
}
