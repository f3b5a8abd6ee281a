#if AsyncHTTPClient
    import AsyncHTTPClient
    import Foundation
    import NIOCore
    import NIOHTTP1
    import NIOPosix

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// A ``TransportRequest`` as AsyncHTTPClient takes it: method, URL, headers and a body that is
    /// bytes in memory, or a file or stream read in chunks as the connection takes them.
    enum AsyncHTTPClientRequest {
        /// The most read from a file or stream at a time.
        static let chunkSize = 128 * 1024

        /// The request for `request`, asking for a gzip or deflate body (`Accept-Encoding: gzip, deflate`)
        /// when `acceptsCompression` and the request does not say what it accepts.
        /// - Throws: ``APIError/requestFailed(_:)`` with `badURL` or `unsupportedURL` for a URL
        ///   AsyncHTTPClient cannot send to; ``APIError/invalidRequest(_:)`` for a body file that
        ///   cannot be read.
        /// - Parameters:
        ///   - request: What to send.
        ///   - acceptsCompression: Whether to ask for a gzip or deflate body, which the transport inflates; `false` by default.
        /// - Returns: The request, and for a body sent from a file, where each sending of it registers
        ///   the file it opens, for the exchange to close once it ends, whatever becomes of
        ///   AsyncHTTPClient's own hold on the body; `nil` for any other body, which opens no file.
        static func make(
            from request: TransportRequest, acceptsCompression: Bool = false
        ) throws(APIError) -> (request: HTTPClient.Request, files: OpenedBodyFiles?) {
            let urlRequest = request.urlRequest
            guard let url = urlRequest.url else {
                throw .requestFailed(URLError(.badURL, userInfo: [NSLocalizedDescriptionKey: "the request has no URL"]))
            }
            var headers = NIOHTTP1.HTTPHeaders()
            if let fields = urlRequest.allHTTPHeaderFields {
                headers.reserveCapacity(fields.count)
                for (name, value) in fields { headers.add(name: name, value: value) }
            }
            if acceptsCompression, !headers.contains(name: "Accept-Encoding") {
                headers.add(name: "Accept-Encoding", value: "gzip, deflate")
            }
            // Most requests carry no file: they skip the allocations and locks of the files' registry.
            let files = request.bodyFile == nil ? nil : OpenedBodyFiles()
            do {
                let made = try HTTPClient.Request(
                    url: url,
                    method: NIOHTTP1.HTTPMethod(rawValue: urlRequest.httpMethod ?? "GET"),
                    headers: headers,
                    body: try body(of: request, files: files)
                )
                return (made, files)
            } catch let error as APIError {
                throw error
            } catch {
                throw AsyncHTTPClientFailure.apiError(error, headReceived: false, url: url)
            }
        }

        /// The body of `request`; `files` is where a file body's sendings register their file, present exactly when it has one.
        private static func body(of request: TransportRequest, files: OpenedBodyFiles?) throws(APIError) -> HTTPClient.Body? {
            if let file = request.bodyFile, let files {
                let size = try fileSize(file)
                // Opened anew each time the body is sent: a redirect sends it again.
                return .stream(contentLength: size) { writer in
                    do throws(APIError) {
                        return stream(try files.register(FileChunks(file, size: size)), to: writer)
                    } catch {
                        return failed(error, writer)
                    }
                }
            }
            if let data = request.urlRequest.httpBody {
                return data.isEmpty && !methodExpectsBody(request.urlRequest) ? nil : .bytes(data)
            }
            if request.urlRequest.httpBodyStream != nil {
                let chunks = StreamChunks(request.urlRequest)
                return .stream(contentLength: nil) { writer in
                    do throws(APIError) {
                        try chunks.begin()
                        return stream(chunks, to: writer)
                    } catch {
                        return failed(error, writer)
                    }
                }
            }
            return nil
        }

        /// A body that fails with `error` before a byte of it is written.
        private static func failed(_ error: APIError, _ writer: HTTPClient.Body.StreamWriter) -> EventLoopFuture<Void> {
            // The writer's empty write gives the event loop to fail on.
            writer.write(.byteBuffer(ByteBuffer())).flatMapThrowing { throw error }
        }

        /// Whether an empty body is still sent, as `Content-Length: 0`: for methods that normally carry one.
        private static func methodExpectsBody(_ request: URLRequest) -> Bool {
            ["POST", "PUT", "PATCH"].contains(request.httpMethod ?? "GET")
        }

        private static func fileSize(_ file: URL) throws(APIError) -> Int64 {
            guard let size = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? NSNumber else {
                throw .invalidRequest("the file to upload, \(file.path), does not exist or cannot be read")
            }
            return size.int64Value
        }

        /// Writes `chunks` to `writer` one at a time: each read on NIO's blocking-I/O thread pool, the
        /// next one once the connection has taken the last.
        ///
        /// The body ends as soon as its last chunk is written, not once the connection has taken it:
        /// a server that answers as soon as it has read the body would otherwise have its answer
        /// arrive while the body still counts as being sent, and AsyncHTTPClient fails such a request
        /// when the answer ends with the connection.
        private static func stream(_ chunks: some ChunkReading, to writer: HTTPClient.Body.StreamWriter) -> EventLoopFuture<Void> {
            // An empty write tells which event loop the writer's futures complete on.
            writer.write(.byteBuffer(ByteBuffer())).flatMapWithEventLoop { _, eventLoop in
                let done = eventLoop.makePromise(of: Void.self)
                done.futureResult.whenComplete { _ in chunks.close() }
                @Sendable func next() {
                    NIOThreadPool.singleton.runIfActive(eventLoop: eventLoop) { try chunks.read() }.whenComplete { result in
                        switch result {
                        case .success(let chunk?):
                            let written = writer.write(.byteBuffer(chunk.bytes))
                            if chunk.isLast { return done.succeed(()) }
                            written.whenComplete { written in
                                switch written {
                                case .success: next()
                                case .failure(let error): done.fail(error)
                                }
                            }
                        case .success(nil): done.succeed(())
                        case .failure(let error): done.fail(error)
                        }
                    }
                }
                next()
                return done.futureResult
            }
        }
    }

    /// The files the sendings of one exchange's body opened, closed together once the exchange ends:
    /// AsyncHTTPClient may keep a body's stream (and so its file) alive after a request it failed.
    final class OpenedBodyFiles: Sendable {
        private let files = Locked<[FileChunks]?>([])

        /// Keeps `file` to close with the others; closes it at once when they have been closed already.
        func register(_ file: FileChunks) -> FileChunks {
            let isOpen = files.withLock { files -> Bool in
                files?.append(file)
                return files != nil
            }
            if !isOpen { file.close() }
            return file
        }

        /// Closes every file registered, and any registered from now on.
        func closeAll() {
            let files = files.withLock { files in
                defer { files = nil }
                return files ?? []
            }
            files.forEach { $0.close() }
        }
    }

    /// A chunk of a request body, and whether it is known to be the last.
    struct BodyChunk: Sendable {
        var bytes: ByteBuffer
        var isLast: Bool
    }

    /// A request body read in chunks, on a thread that may block.
    protocol ChunkReading: Sendable {
        /// The next chunk, `nil` at the end.
        func read() throws(APIError) -> BodyChunk?
        /// Releases what reading holds.
        func close()
    }

    /// A file read in chunks, for one sending of its body.
    final class FileChunks: ChunkReading {
        private let file: URL
        /// The size the request announced: the chunk that reaches it is the last.
        private let size: Int64
        private let descriptor: Locked<Int32?>
        private let offset = Locked<Int64>(0)

        /// Opens `file`, announced as `size` bytes.
        /// - Throws: ``APIError/invalidRequest(_:)`` when it cannot be opened.
        init(_ file: URL, size: Int64) throws(APIError) {
            let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw .invalidRequest("the file to upload, \(file.path), cannot be opened: \(String(cString: strerror(errno)))")
            }
            self.file = file
            self.size = size
            self.descriptor = Locked(descriptor)
        }

        deinit { close() }

        func read() throws(APIError) -> BodyChunk? {
            var buffer = ByteBuffer()
            var failure: Int32 = 0
            // Never past the size announced: the rest, if the file grew, is not the body's.
            let remaining = Int(max(0, size - offset.withLock { $0 }))
            guard remaining > 0 else { return nil }
            // Read under the lock, so that a close meanwhile (the exchange ending) cannot hand the
            // descriptor's number to another file before this read is done with it.
            let readCount = descriptor.withLock { descriptor -> Int? in
                guard let descriptor else { return nil }
                return buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: AsyncHTTPClientRequest.chunkSize) { bytes in
                    let count = readBytes(descriptor, UnsafeMutableRawBufferPointer(rebasing: bytes.prefix(remaining)))
                    if count < 0 { failure = errno }
                    return max(0, count)
                }
            }
            guard let count = readCount else { return nil }
            if failure != 0 {
                throw .invalidRequest("the file to upload, \(file.path), could not be read: \(String(cString: strerror(failure)))")
            }
            guard count > 0 else { return nil }
            let read = offset.withLock { offset in
                offset += Int64(count)
                return offset
            }
            return BodyChunk(bytes: buffer, isLast: read >= size)
        }

        func close() {
            let descriptor = descriptor.withLock { descriptor in
                defer { descriptor = nil }
                return descriptor
            }
            if let descriptor { closeDescriptor(descriptor) }
        }
    }

    /// A request's `httpBodyStream` read in chunks: a stream is read once, so a second sending of it
    /// (by an `HTTPClient` that follows redirects itself) fails instead of sending what is left of it.
    final class StreamChunks: ChunkReading {
        /// The request holding the stream; `URLRequest` is `Sendable`, an `InputStream` is not.
        private let request: URLRequest
        /// Whether a sending of the body has begun; a second one may not.
        private let hasBegun = Locked(false)
        private let isOpen = Locked(false)

        init(_ request: URLRequest) {
            self.request = request
        }

        /// Marks the start of a sending of the body.
        /// - Throws: ``APIError/invalidRequest(_:)`` when it was sent before: the stream cannot give it again.
        func begin() throws(APIError) {
            let hadBegun = hasBegun.withLock { hasBegun in
                defer { hasBegun = true }
                return hasBegun
            }
            if hadBegun {
                throw .invalidRequest(
                    "the request's httpBodyStream was sent once and cannot be sent again; "
                        + "put the body in httpBody, or send it from a file")
            }
        }

        func read() throws(APIError) -> BodyChunk? {
            guard let stream = request.httpBodyStream else { return nil }
            let opens = isOpen.withLock { isOpen in
                defer { isOpen = true }
                return !isOpen
            }
            if opens { stream.open() }
            var buffer = ByteBuffer()
            var failed = false
            let count = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: AsyncHTTPClientRequest.chunkSize) { bytes in
                guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return 0 }
                let count = stream.read(base, maxLength: bytes.count)
                failed = count < 0
                return max(0, count)
            }
            // Not `streamError`: on Linux, reading it traps at the end of some streams.
            if failed { throw .invalidRequest("the request's httpBodyStream failed while it was being read") }
            return count == 0 ? nil : BodyChunk(bytes: buffer, isLast: false)
        }

        func close() {
            if isOpen.withLock({ $0 }) { request.httpBodyStream?.close() }
        }
    }

    /// `read(2)` into `bytes`.
    private func readBytes(_ descriptor: Int32, _ bytes: UnsafeMutableRawBufferPointer) -> Int {
        read(descriptor, bytes.baseAddress, bytes.count)
    }

    /// `close(2)`.
    private func closeDescriptor(_ descriptor: Int32) {
        _ = close(descriptor)
    }
#endif
