import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension MultipartFormData {
    /// The size of the encoded body in bytes, without reading any file.
    /// - Throws: ``APIError/encodingFailed(_:)`` when a file part cannot be found, or when a part's
    ///   name, filename or content type contains CR, LF or NUL.
    public func contentLength() throws(APIError) -> Int64 {
        try validateHeaders()
        var length = Int64(closingDelimiter.count)
        for part in parts {
            length += Int64(opening(of: part).count + Self.crlf.count)
            switch part.content {
            case .data(let data): length += Int64(data.count)
            case .file(let url): length += try Self.size(of: url, part: part)
            }
        }
        return length
    }

    /// The whole encoded body in memory; for small forms, and for checking what would be sent.
    /// - Throws: ``APIError/encodingFailed(_:)`` for an invalid boundary, a part's name, filename or
    ///   content type containing CR, LF or NUL, an unreadable file, or a boundary that occurs in the content.
    public func encoded() throws(APIError) -> Data {
        var body = Data()
        try encode { chunk throws(APIError) in body.append(chunk) }
        return body
    }

    /// Writes the encoded body to `fileURL`, replacing any file there, copying file parts in 1 MiB
    /// chunks so that memory stays flat whatever their size.
    /// - Throws: ``APIError/encodingFailed(_:)`` as ``encoded()`` does, or when the file cannot be written.
    public func write(to fileURL: URL) throws(APIError) {
        try write(to: fileURL, isCancelled: { false })
    }

    /// ``write(to:)``, stopping with ``APIError/cancelled`` (and no file left behind) once `isCancelled` says so.
    func write(to fileURL: URL, isCancelled: () -> Bool) throws(APIError) {
        // What can be refused without reading a file is refused before the file is created.
        try validateBoundary()
        try validateHeaders()
        guard FileManager.default.createFile(atPath: fileURL.path, contents: nil), let output = try? FileHandle(forWritingTo: fileURL)
        else {
            throw .encodingFailed("could not create \(fileURL.path) for the multipart body")
        }
        defer { try? output.close() }
        do throws(APIError) {
            try encode(isCancelled: isCancelled) { chunk throws(APIError) in
                do {
                    try output.write(contentsOf: chunk)
                } catch {
                    throw .encodingFailed("could not write the multipart body to \(fileURL.path): \(error.localizedDescription)")
                }
            }
        } catch {
            try? FileManager.default.removeItem(at: fileURL)
            throw error
        }
    }

    /// Produces the body in order, in pieces of at most ``copyChunkSize`` bytes for files.
    func encode(isCancelled: () -> Bool = { false }, into sink: (Data) throws(APIError) -> Void) throws(APIError) {
        try validateBoundary()
        try validateHeaders()
        let delimiter = Data("--\(boundary)".utf8)
        for part in parts {
            if isCancelled() { throw .cancelled }
            try sink(opening(of: part))
            switch part.content {
            case .data(let data):
                if data.containsBytes(delimiter) { throw collision(in: part) }
                try sink(data)
            case .file(let url):
                try copy(url, of: part, delimiter: delimiter, isCancelled: isCancelled, into: sink)
            }
            try sink(Self.crlf)
        }
        try sink(closingDelimiter)
    }

    /// Copies a file part in chunks, checking each (and the seams between them) for the delimiter.
    private func copy(
        _ url: URL,
        of part: Part,
        delimiter: Data,
        isCancelled: () -> Bool,
        into sink: (Data) throws(APIError) -> Void
    ) throws(APIError) {
        let input: FileHandle
        do {
            input = try FileHandle(forReadingFrom: url)
        } catch {
            throw .encodingFailed("part '\(part.name)': cannot read \(url.path): \(error.localizedDescription)")
        }
        defer { try? input.close() }
        var seam = Data()
        while true {
            if isCancelled() { throw .cancelled }
            let chunk: Data
            do {
                chunk = try input.read(upToCount: Self.copyChunkSize) ?? Data()
            } catch {
                throw .encodingFailed("part '\(part.name)': cannot read \(url.path): \(error.localizedDescription)")
            }
            if chunk.isEmpty { return }
            if chunk.containsBytes(delimiter) || (seam + chunk.prefix(delimiter.count - 1)).containsBytes(delimiter) {
                throw collision(in: part)
            }
            seam = (seam + chunk).suffix(delimiter.count - 1)
            try sink(chunk)
        }
    }

    /// The bytes before a part's content: its delimiter line and header block.
    private func opening(of part: Part) -> Data {
        Data("--\(boundary)\r\n\(part.headers)".utf8)
    }

    private var closingDelimiter: Data {
        Data("--\(boundary)--\r\n".utf8)
    }

    private func validateBoundary() throws(APIError) {
        let allowed = boundary.utf8.allSatisfy { byte in
            HTTPHeaders.isTokenByte(byte) && !"!#$%&*^`|~".utf8.contains(byte)
        }
        guard (1...70).contains(boundary.utf8.count), allowed else {
            throw .encodingFailed(
                "multipart boundary '\(boundary)' is invalid: use 1 to 70 letters, digits, \"'\", '+', '_', '-' or '.'"
            )
        }
    }

    /// Fails on the first part whose header block could not be written as given.
    private func validateHeaders() throws(APIError) {
        if let problem = parts.lazy.compactMap(\.problem).first { throw .encodingFailed(problem) }
    }

    private func collision(in part: Part) -> APIError {
        .encodingFailed("the multipart boundary '\(boundary)' occurs in part '\(part.name)'; use another boundary")
    }

    private static func size(of url: URL, part: Part) throws(APIError) -> Int64 {
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            guard attributes[.type] as? FileAttributeType != .typeDirectory else {
                throw APIError.encodingFailed("part '\(part.name)': \(url.path) is a directory")
            }
            return (attributes[.size] as? NSNumber)?.int64Value ?? 0
        } catch let error as APIError {
            throw error
        } catch {
            throw .encodingFailed("part '\(part.name)': cannot read \(url.path): \(error.localizedDescription)")
        }
    }

    /// How much of a file is read at a time when the form is written out.
    static let copyChunkSize = 1024 * 1024

    static let crlf = Data("\r\n".utf8)
}

extension Data {
    /// Whether `needle` occurs in these bytes, found with the C library's `memchr` and `memcmp`.
    func containsBytes(_ needle: Data) -> Bool {
        guard let first = needle.first else { return true }
        guard count >= needle.count else { return false }
        return withUnsafeBytes { haystack in
            needle.withUnsafeBytes { needle in
                guard let start = haystack.baseAddress, let pattern = needle.baseAddress else { return false }
                var offset = 0
                let last = haystack.count - needle.count
                while offset <= last {
                    guard let found = memchr(start + offset, Int32(first), last - offset + 1) else { return false }
                    let position = start.distance(to: UnsafeRawPointer(found))
                    if memcmp(start + position, pattern, needle.count) == 0 { return true }
                    offset = position + 1
                }
                return false
            }
        }
    }
}
