import Foundation
import NetworkLayerTesting
import TestSupport
import Testing

@testable import NetworkLayer

@Suite("MultipartFormData")
struct MultipartFormDataTests {
    @Test("Fields, in-memory parts and files are framed exactly, with CRLF line ends")
    func exactBytes() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("notes.txt")
        try Data("file\r\nbody".utf8).write(to: file)
        var form = MultipartFormData(boundary: "B0undary")
        form.append("Heat", name: "title")
        form.append(Data([0x00, 0xFF]), name: "blob", filename: "b.bin")
        form.append(Data("{}".utf8), name: "meta", contentType: "application/json")
        form.append(fileAt: file, name: "notes", contentType: "text/plain")
        let expected =
            "--B0undary\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHeat\r\n"
            + "--B0undary\r\nContent-Disposition: form-data; name=\"blob\"; filename=\"b.bin\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n\u{00}\u{FFFD}\r\n"
            + "--B0undary\r\nContent-Disposition: form-data; name=\"meta\"\r\nContent-Type: application/json\r\n\r\n{}\r\n"
            + "--B0undary\r\nContent-Disposition: form-data; name=\"notes\"; filename=\"notes.txt\"\r\n"
            + "Content-Type: text/plain\r\n\r\nfile\r\nbody\r\n"
            + "--B0undary--\r\n"
        var expectedBytes = Data(expected.utf8)
        // The blob's second byte is 0xFF, which UTF-8 text cannot hold: put it back.
        let replacement = try #require(expectedBytes.range(of: Data("\u{FFFD}".utf8)))
        expectedBytes.replaceSubrange(replacement, with: [0xFF])
        #expect(try form.encoded() == expectedBytes)
        #expect(form.contentType == "multipart/form-data; boundary=B0undary")
        #expect(form.count == 4)
    }

    @Test("An empty form is just the closing delimiter")
    func emptyForm() throws {
        #expect(try MultipartFormData(boundary: "b").encoded() == Data("--b--\r\n".utf8))
    }

    @Test("Names and filenames go as UTF-8, with quotes escaped as browsers do")
    func nonASCIIAndEscaping() throws {
        var form = MultipartFormData(boundary: "b")
        form.append(Data("x".utf8), name: "pièce \"1\"", filename: "naïve \"résumé\" 📄.pdf", contentType: "application/pdf")
        let text = String(decoding: try form.encoded(), as: UTF8.self)
        #expect(text.contains("Content-Disposition: form-data; name=\"pièce %221%22\"; filename=\"naïve %22résumé%22 📄.pdf\"\r\n"))
    }

    @Test("The default boundary is 128 random bits, new for every form")
    func randomBoundary() {
        let boundaries = (0..<100).map { _ in MultipartFormData().boundary }
        #expect(Set(boundaries).count == 100)
        for boundary in boundaries {
            #expect(boundary.hasPrefix("NetworkLayer-"))
            #expect(boundary.dropFirst("NetworkLayer-".count).count == 32)
            let digits = boundary.dropFirst("NetworkLayer-".count)
            #expect(digits.allSatisfy { $0.isHexDigit })
        }
    }

    @Test("contentLength is the encoded size, and write(to:) writes exactly the encoded bytes")
    func lengthAndFile() throws {
        let directory = try TemporaryDirectory()
        let part = directory.file("part.bin")
        try Pattern.data(count: 3 * 1024 * 1024 + 17).write(to: part)
        var form = MultipartFormData()
        form.append("v", name: "k")
        form.append(fileAt: part, name: "file")
        let encoded = try form.encoded()
        #expect(try form.contentLength() == Int64(encoded.count))
        let written = directory.file("form")
        try form.write(to: written)
        #expect(try Data(contentsOf: written) == encoded)
    }

    @Test("A boundary found in an in-memory part fails encoding")
    func collisionInData() {
        var form = MultipartFormData(boundary: "abc")
        form.append("before --abc after", name: "field")
        #expect(throws: APIError.encodingFailed("the multipart boundary 'abc' occurs in part 'field'; use another boundary")) {
            try form.encoded()
        }
    }

    @Test("A boundary found in a file fails encoding, even across the seam between two 1 MiB reads")
    func collisionInFile() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("big.bin")
        var content = Data(repeating: 0x41, count: 2 * 1024 * 1024)
        content.replaceSubrange((1024 * 1024 - 3)..<(1024 * 1024 + 3), with: Data("--abcd".utf8))
        try content.write(to: file)
        var form = MultipartFormData(boundary: "abcd")
        form.append(fileAt: file, name: "upload")
        #expect(throws: APIError.encodingFailed("the multipart boundary 'abcd' occurs in part 'upload'; use another boundary")) {
            try form.write(to: directory.file("form"))
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("form").path), "a failed write leaves no file")
    }

    @Test(
        "A boundary that is empty, too long or has characters a header cannot carry unquoted fails encoding",
        arguments: ["", String(repeating: "a", count: 71), "a b", "a;b", "a\"b", "é"])
    func invalidBoundary(boundary: String) {
        #expect(throws: APIError.self) { try MultipartFormData(boundary: boundary).encoded() }
    }

    @Test("A file part that does not exist fails encoding, naming the part")
    func missingFile() {
        var form = MultipartFormData()
        form.append(fileAt: URL(fileURLWithPath: "/nonexistent/x.jpg"), name: "poster")
        let error = #expect(throws: APIError.self) { try form.contentLength() }
        #expect(error?.encodingFailureReason?.contains("part 'poster'") == true)
    }
}
