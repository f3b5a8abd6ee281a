import Foundation

/// A `multipart/form-data` body (RFC 7578): text fields, in-memory parts and files, sent with
/// ``HTTPTask/uploadMultipart(_:urlParameters:)``.
///
/// ```swift
/// var form = MultipartFormData()
/// form.append("Heat", name: "title")
/// form.append(jsonData, name: "meta", contentType: "application/json")
/// form.append(fileAt: posterURL, name: "poster", contentType: "image/jpeg")
/// ```
///
/// Files are not read when appended: a form is written out when it is sent, copying each file in
/// chunks, so a large file never sits in memory (see ``encodingMemoryThreshold``). Field names and
/// filenames are sent as UTF-8, as browsers send them, with `"`, CR and LF escaped as `%22`,
/// `%0D` and `%0A`.
public struct MultipartFormData: Sendable {
    /// One part of the form: its field name, its header block and where its content comes from.
    struct Part: Sendable {
        enum Content: Sendable {
            case data(Data)
            case file(URL)
        }

        let name: String
        let headers: String
        let content: Content
    }

    /// The boundary between parts: by default `NetworkLayer-` and 32 random hex digits (128 bits),
    /// so it cannot realistically occur in any content. Encoding checks every part anyway, files
    /// included, and fails with ``APIError/encodingFailed(_:)`` if it does.
    public let boundary: String
    /// Forms up to this many bytes are encoded in memory when sent; larger ones are written to a
    /// temporary file in chunks and uploaded from it. 10 MiB by default.
    public var encodingMemoryThreshold: Int64 = 10 * 1024 * 1024
    private(set) var parts: [Part] = []

    /// Creates an empty form.
    /// - Parameter boundary: The boundary between parts; a random one by default. A boundary of your
    ///   own must be 1 to 70 letters, digits, `'`, `+`, `_`, `-` or `.`, and must not occur in the
    ///   content; otherwise encoding fails with ``APIError/encodingFailed(_:)``.
    public init(boundary: String = MultipartFormData.randomBoundary()) {
        self.boundary = boundary
    }

    /// A new random boundary: `NetworkLayer-` followed by 32 hex digits.
    public static func randomBoundary() -> String {
        var generator = SystemRandomNumberGenerator()
        let hex = (0..<2).map { _ in
            let digits = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return "NetworkLayer-" + hex.joined()
    }

    /// The value of the request's `Content-Type`: `multipart/form-data; boundary=<boundary>`.
    public var contentType: String {
        "multipart/form-data; boundary=\(boundary)"
    }

    /// Adds a text field, sent as UTF-8 without a `Content-Type` (which means `text/plain`).
    /// - Parameters:
    ///   - value: The field's value.
    ///   - name: The field's name.
    public mutating func append(_ value: String, name: String) {
        parts.append(Part(name: name, headers: Self.headers(name: name, filename: nil, contentType: nil), content: .data(Data(value.utf8))))
    }

    /// Adds bytes held in memory.
    /// - Parameters:
    ///   - data: The part's content.
    ///   - name: The field's name.
    ///   - filename: The filename the server sees, if the part is a file; `nil` by default.
    ///   - contentType: The part's `Content-Type`; by default none, or `application/octet-stream` when there is a filename.
    public mutating func append(_ data: Data, name: String, filename: String? = nil, contentType: String? = nil) {
        let type = contentType ?? (filename == nil ? nil : Self.defaultFileContentType)
        parts.append(Part(name: name, headers: Self.headers(name: name, filename: filename, contentType: type), content: .data(data)))
    }

    /// Adds a file from disk, read only when the form is sent and copied in chunks.
    /// - Parameters:
    ///   - fileURL: The file to send; it must exist and be readable when the form is sent.
    ///   - name: The field's name.
    ///   - filename: The filename the server sees; the file's own name by default.
    ///   - contentType: The part's `Content-Type`; `application/octet-stream` by default.
    public mutating func append(fileAt fileURL: URL, name: String, filename: String? = nil, contentType: String? = nil) {
        let headers = Self.headers(
            name: name,
            filename: filename ?? fileURL.lastPathComponent,
            contentType: contentType ?? Self.defaultFileContentType
        )
        parts.append(Part(name: name, headers: headers, content: .file(fileURL)))
    }

    /// The number of parts.
    public var count: Int { parts.count }

    static let defaultFileContentType = "application/octet-stream"

    /// The header block of a part, up to and including the blank line that ends it.
    static func headers(name: String, filename: String?, contentType: String?) -> String {
        var disposition = "Content-Disposition: form-data; name=\"\(escaped(name))\""
        if let filename {
            disposition += "; filename=\"\(escaped(filename))\""
        }
        var block = disposition + "\r\n"
        if let contentType {
            block += "Content-Type: \(contentType.filter { $0 != "\r" && $0 != "\n" })\r\n"
        }
        return block + "\r\n"
    }

    /// A name or filename as HTML's form submission writes it: UTF-8, with `"`, CR and LF percent-escaped.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "%22"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
