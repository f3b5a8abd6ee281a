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
/// filenames are sent as UTF-8, as browsers send them, with `"` escaped as `%22`.
///
/// A part's header block cannot be forged: a name, filename or content type holding a CR, LF or
/// NUL (as a Unicode scalar anywhere, `"\r\n"` included) makes encoding fail with
/// ``APIError/encodingFailed(_:)`` naming the part, before a single byte is written or sent.
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
        /// Why the part's header block cannot be written, if it cannot.
        let problem: String?

        init(name: String, filename: String?, contentType: String?, content: Content) {
            self.name = name
            self.headers = MultipartFormData.headers(name: name, filename: filename, contentType: contentType)
            self.content = content
            self.problem = MultipartFormData.headerProblem(name: name, filename: filename, contentType: contentType)
        }
    }

    /// The boundary between parts: by default `NetworkLayer-` and 32 random hex digits (128 bits),
    /// so it cannot realistically occur in any content. Encoding checks every part anyway, files
    /// included, and fails with ``APIError/encodingFailed(_:)`` if it does.
    let boundary: String
    /// Forms up to this many bytes are encoded in memory when sent; larger ones are written to a
    /// temporary file in chunks and uploaded from it. 64 KiB by default: a form of text fields stays
    /// in memory, and a thousand forms with files at once hold 64 MiB of encoding at most, where each
    /// encoded whole would hold its files' size.
    public var encodingMemoryThreshold: Int64 = 64 * 1024
    private(set) var parts: [Part] = []

    /// Creates an empty form.
    /// - Parameter boundary: The boundary between parts; a random one by default. A boundary of your
    ///   own must be 1 to 70 letters, digits, `'`, `+`, `_`, `-` or `.`, and must not occur in the
    ///   content; otherwise encoding fails with ``APIError/encodingFailed(_:)``.
    public init(boundary: String = MultipartFormData.randomBoundary()) {
        self.boundary = boundary
    }

    /// A new random boundary: `NetworkLayer-` followed by 32 hex digits.
    @usableFromInline static func randomBoundary() -> String {
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
        parts.append(Part(name: name, filename: nil, contentType: nil, content: .data(Data(value.utf8))))
    }

    /// Adds bytes held in memory.
    /// - Parameters:
    ///   - data: The part's content.
    ///   - name: The field's name.
    ///   - filename: The filename the server sees, if the part is a file; `nil` by default.
    ///   - contentType: The part's `Content-Type`; by default none, or `application/octet-stream` when there is a filename.
    public mutating func append(_ data: Data, name: String, filename: String? = nil, contentType: String? = nil) {
        let type = contentType ?? (filename == nil ? nil : Self.defaultFileContentType)
        parts.append(Part(name: name, filename: filename, contentType: type, content: .data(data)))
    }

    /// Adds a file from disk, read only when the form is sent and copied in chunks.
    /// - Parameters:
    ///   - fileURL: The file to send; it must exist and be readable when the form is sent.
    ///   - name: The field's name.
    ///   - filename: The filename the server sees; the file's own name by default.
    ///   - contentType: The part's `Content-Type`; `application/octet-stream` by default.
    public mutating func append(fileAt fileURL: URL, name: String, filename: String? = nil, contentType: String? = nil) {
        parts.append(
            Part(
                name: name,
                filename: filename ?? fileURL.lastPathComponent,
                contentType: contentType ?? Self.defaultFileContentType,
                content: .file(fileURL)
            ))
    }

    /// The number of parts.
    var count: Int { parts.count }

    static let defaultFileContentType = "application/octet-stream"

    /// The header block of a part, up to and including the blank line that ends it.
    static func headers(name: String, filename: String?, contentType: String?) -> String {
        var disposition = "Content-Disposition: form-data; name=\"\(escaped(name))\""
        if let filename {
            disposition += "; filename=\"\(escaped(filename))\""
        }
        var block = disposition + "\r\n"
        if let contentType {
            block += "Content-Type: \(contentType)\r\n"
        }
        return block + "\r\n"
    }

    /// A name or filename as HTML's form submission writes it: UTF-8, with `"` percent-escaped.
    /// (CR and LF, which HTML escapes too, never get here: ``headerProblem(name:filename:contentType:)`` refuses them.)
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar == "\"" {
                result += "%22"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Why a part with this name, filename and content type cannot be written, or `nil`: each is
    /// checked byte by byte for CR, LF and NUL, which would end or cut its header line.
    static func headerProblem(name: String, filename: String?, contentType: String?) -> String? {
        let fields = [("name", name), ("filename", filename), ("content type", contentType)]
        for case let (label, text?) in fields where text.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) {
            return "part '\(escapedForMessage(name))': its \(label) contains CR, LF or NUL, which would forge the part's headers"
        }
        return nil
    }

    /// A name fit for an error message: control characters shown as `\u{…}`.
    static func escapedForMessage(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
