import Foundation
import NetworkLayer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Multipart forms over real HTTP", .httpbin)
struct MultipartHTTPBinTests {
    /// What httpbin's `/post` echoes of a form.
    struct FormEcho: Decodable {
        let form: [String: String]
        let files: [String: String]
        let headers: [String: String]
    }

    @Test(
        "Fields and files arrive intact at httpbin, in memory or streamed from a temporary file", arguments: TransportKind.all,
        [false, true])
    func httpbinForm(transport: TransportKind, streamed: Bool) async throws {
        let directory = try TemporaryDirectory()
        let notes = directory.file("notes.txt")
        try Data("line one\r\nline two\n".utf8).write(to: notes)
        var form = MultipartFormData()
        if streamed { form.encodingMemoryThreshold = 0 }
        form.append("Heat", name: "title")
        form.append("Crime, drama – é ✓", name: "genres")
        form.append(Data(#"{"year":1995}"#.utf8), name: "meta", filename: "meta.json", contentType: "application/json")
        form.append(fileAt: notes, name: "notes", contentType: "text/plain")
        let echo: FormEcho = try await transport.makeClient().send(
            try HTTPBinEndpoint("/post", method: .post, task: .uploadMultipart(form)))
        #expect(echo.form == ["title": "Heat", "genres": "Crime, drama – é ✓"])
        #expect(echo.files == ["meta": #"{"year":1995}"#, "notes": "line one\r\nline two\n"])
        #expect(echo.headers["Content-Type"] == form.contentType)
    }

    #if canImport(FoundationNetworking)
        @Test("A form survives a 307 on Linux: it is sent again, whole, to the new location", arguments: TransportKind.all)
        func formSurvivesRedirect(transport: TransportKind) async throws {
            var form = MultipartFormData()
            form.encodingMemoryThreshold = 0
            form.append("Heat", name: "title")
            let endpoint = try HTTPBinEndpoint(
                "/redirect-to", method: .post, task: .uploadMultipart(form, urlParameters: ["url": "/post", "status_code": 307]))
            let echo: FormEcho = try await transport.makeClient().send(endpoint)
            #expect(echo.form == ["title": "Heat"])
        }
    #endif
}

@Suite("Multipart forms parsed by a server", .fileserver)
struct MultipartParsingTests {
    @Test("Names, UTF-8 filenames, content types and every byte of each part arrive as sent", arguments: TransportKind.all)
    func partsArrive(transport: TransportKind) async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("poster.bin")
        let content = Pattern.data(count: 2 * 1024 * 1024 + 3)
        try content.write(to: file)
        var form = MultipartFormData()
        form.encodingMemoryThreshold = 1024
        form.append("Heat é", name: "title")
        form.append(Data("{}".utf8), name: "meta", contentType: "application/json")
        form.append(fileAt: file, name: "poster", filename: "naïve résumé 📄.bin", contentType: "image/x-test")
        let parsed: ParsedForm = try await transport.makeClient().upload(
            for: try FileServer.endpoint("/multipart", method: .post, task: .uploadMultipart(form)))
        #expect(parsed.complete)
        #expect(parsed.bytes == Int(try form.contentLength()))
        #expect(
            parsed.parts == [
                .init(name: "title", filename: nil, contentType: nil, bytes: 7, pattern: false, text: "Heat é"),
                .init(name: "meta", filename: nil, contentType: "application/json", bytes: 2, pattern: false, text: "{}"),
                .init(
                    name: "poster", filename: "naïve résumé 📄.bin", contentType: "image/x-test", bytes: content.count, pattern: true,
                    text: nil),
            ])
    }
}
