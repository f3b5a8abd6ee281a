import Foundation
import NetworkLayer
import NetworkLayerTesting
import TestSupport
import Testing

/// The header block of each part, read back by parsers nobody here wrote, and refused when a
/// name, filename or content type would forge a header line.
@Suite("MultipartFormData part headers")
struct MultipartHeaderTests {
    /// A form with a quoted non-ASCII name, a UTF-8 filename and a content type with parameters.
    static func referenceForm() -> MultipartFormData {
        var form = MultipartFormData(boundary: "B0undary")
        form.append("Heat", name: "title")
        form.append(Data("x".utf8), name: "pièce \"1\"", filename: "naïve résumé 📄.pdf", contentType: "application/pdf")
        form.append(Data("{}".utf8), name: "meta", contentType: "application/json; charset=\"utf-8\"")
        return form
    }

    /// What python-multipart 0.0.34 (`MultipartParser` callbacks) and Python 3.11's `email.parser`
    /// (`policy=email.policy.HTTP`) both read from ``referenceForm()``'s body: each part's header
    /// fields, in order, and its content. The email parser also reads the parameters:
    /// name `pièce %221%22`, filename `naïve résumé 📄.pdf`; `application/json` with charset `utf-8`.
    static let referenceParts: [(headers: [(String, String)], content: String)] = [
        ([("Content-Disposition", "form-data; name=\"title\"")], "Heat"),
        (
            [
                ("Content-Disposition", "form-data; name=\"pièce %221%22\"; filename=\"naïve résumé 📄.pdf\""),
                ("Content-Type", "application/pdf"),
            ], "x"
        ),
        ([("Content-Disposition", "form-data; name=\"meta\""), ("Content-Type", "application/json; charset=\"utf-8\"")], "{}"),
    ]

    @Test("Each part's header fields are the ones python-multipart and Python's email parser read")
    func readBackByReferenceParsers() throws {
        let parts = try Self.split(try Self.referenceForm().encoded(), boundary: "B0undary")
        #expect(parts.count == Self.referenceParts.count)
        for (part, reference) in zip(parts, Self.referenceParts) {
            #expect(part.headers.map { "\($0.0): \($0.1)" } == reference.headers.map { "\($0.0): \($0.1)" })
            #expect(part.content == Data(reference.content.utf8))
        }
    }

    enum Field: CaseIterable, CustomTestStringConvertible {
        case name, filename, contentType
        var testDescription: String { "\(self)" }
    }

    enum Storage: CaseIterable, CustomTestStringConvertible {
        case memory, file
        var testDescription: String { "\(self)" }
    }

    /// Before the fix, `"text/plain\r\nX-Injected: 1"` as a content type gave a part with a header
    /// `X-Injected: 1` in all three parsers (`"\r\n"` is one Character, so a Character filter let it through).
    static let forgeries = ["text/plain\r\nX-Injected: 1", "a\rb", "a\nX-Injected: 1", "a\0b", "\r\n", "x\r\n\u{301}"]

    @Test(
        "CR, LF or NUL in a name, filename or content type is refused before a byte is written",
        arguments: Field.allCases, Storage.allCases)
    func forgedHeadersRefused(field: Field, storage: Storage) throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("part.bin")
        try Data("content".utf8).write(to: file)
        for forgery in Self.forgeries {
            var form = MultipartFormData(boundary: "b")
            let name = field == .name ? forgery : "t"
            let filename = field == .filename ? forgery : "f.txt"
            let contentType = field == .contentType ? forgery : "text/plain"
            switch storage {
            case .memory: form.append(Data("x".utf8), name: name, filename: filename, contentType: contentType)
            case .file: form.append(fileAt: file, name: name, filename: filename, contentType: contentType)
            }
            for attempt in [{ _ = try form.encoded() }, { _ = try form.contentLength() }] {
                let error = #expect(throws: APIError.self) { try attempt() }
                #expect(
                    error?.encodingFailureReason?.contains("contains CR, LF or NUL") == true, "\(error.map(String.init(describing:)) ?? "")"
                )
            }
            let output = directory.file("form-\(field)-\(storage)")
            #expect(throws: APIError.self) { try form.write(to: output) }
            #expect(!FileManager.default.fileExists(atPath: output.path), "nothing is written")
        }
    }

    @Test("A forged content type fails the upload with encodingFailed, and nothing reaches the server")
    func forgedHeaderNotSent() async throws {
        let stubbed = StubbedClient()
        stubbed.stubs.register(.post, "/items", .json("{}"))
        var form = MultipartFormData()
        form.append(Data("x".utf8), name: "t", contentType: "text/plain\r\nX-Injected: 1")
        let result = await stubbed.client.fetch(TestEndpoint(method: .post, task: .uploadMultipart(form)), as: Empty.self)
        #expect(result.failure?.encodingFailureReason?.contains("part 't'") == true)
        #expect(stubbed.stubs.requests.isEmpty)
    }

    /// The parts of a multipart body, cut on bytes: each part's header lines split at the first
    /// `": "`, and its content.
    static func split(_ body: Data, boundary: String) throws -> [(headers: [(String, String)], content: Data)] {
        let bytes = [UInt8](body)
        let delimiter = [UInt8]("\r\n--\(boundary)".utf8)
        var sections: [[UInt8]] = []
        var start = 0
        var index = 0
        let padded = [UInt8]("\r\n".utf8) + bytes
        while index + delimiter.count <= padded.count {
            if Array(padded[index..<index + delimiter.count]) == delimiter {
                sections.append(Array(padded[start..<index]))
                index += delimiter.count
                start = index
            } else {
                index += 1
            }
        }
        // The first section is the empty preamble, the last the closing `--\r\n`.
        return try sections.dropFirst().map { section in
            let text = [UInt8](section.dropFirst(2))  // the CRLF after the delimiter
            let end = [UInt8]("\r\n\r\n".utf8)
            let blank = try #require((0...(text.count - end.count)).first { Array(text[$0..<$0 + end.count]) == end })
            let headerLines = String(decoding: text[..<blank], as: UTF8.self).components(separatedBy: "\r\n")
            let headers = try headerLines.map { line -> (String, String) in
                let colon = try #require(line.range(of: ": "))
                return (String(line[..<colon.lowerBound]), String(line[colon.upperBound...]))
            }
            return (headers, Data(text[(blank + end.count)...]))
        }
    }
}
