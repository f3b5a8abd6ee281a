#if AsyncHTTPClient
    import CZlib
    import Foundation
    import NIOCore
    import NIOHTTP1

    /// Inflates a gzip or deflate response body for an ``AsyncHTTPClientExchange``, a slice of
    /// ``sliceSize`` compressed bytes at a time, so that the exchange counts what a body inflates to
    /// against its limit before any more of it is inflated.
    ///
    /// AsyncHTTPClient's own decompression inflates everything a connection read at once (64 KiB,
    /// which a gzip bomb turns into 64 MiB) before the delegate sees any of it, so a limit counted on
    /// what the delegate receives would be overshot by that much. Here a slice of 2 KiB inflates to at
    /// most about 2 MiB (deflate's ratio is at most 1,032 to 1), and nothing more is inflated until
    /// the exchange has taken it: a bomb stops within 2 MiB of the limit. There is no ratio limit: a
    /// legitimate body that compresses 160 to 1 passes.
    ///
    /// zlib reads the gzip and zlib formats alike (`deflate` in HTTP is zlib's format). Used on one
    /// event loop at a time, the exchange's.
    final class AsyncHTTPClientInflater {
        /// The most compressed bytes inflated at a time.
        static let sliceSize = 2 * 1024
        /// The most inflated bytes handed over at a time.
        static let pieceSize = 16 * 1024

        private let stream: UnsafeMutablePointer<z_stream>
        private var isStarted = false
        private var isComplete = false

        /// An inflater for the body that follows `head`, or `nil` when that body is in neither gzip
        /// nor deflate.
        init?(for head: HTTPResponseHead) {
            let coding = head.headers.first(name: "Content-Encoding")?.trimmingCharacters(in: .whitespaces).lowercased()
            guard coding == "gzip" || coding == "x-gzip" || coding == "deflate" else { return nil }
            stream = .allocate(capacity: 1)
            stream.initialize(to: z_stream())
            // A window of up to 32 KiB (15), and the gzip or zlib header recognised by itself (+ 32).
            guard CZlib_inflateInit2(stream, 15 + 32) == Z_OK else {
                stream.deinitialize(count: 1)
                stream.deallocate()
                return nil
            }
        }

        deinit {
            inflateEnd(stream)
            stream.deinitialize(count: 1)
            stream.deallocate()
        }

        /// Inflates the next slice of `compressed` (taking it out of `compressed`), handing what it
        /// inflates to `receive` in pieces of at most ``pieceSize`` bytes, in order.
        /// - Throws: ``APIError/requestFailed(_:)`` (`cannotDecodeContentData`) for bytes that do not
        ///   inflate, or that follow the end of the compressed body.
        func inflateSlice(of compressed: inout ByteBuffer, _ receive: (ByteBuffer) -> Void) throws(APIError) {
            guard let slice = compressed.readSlice(length: min(compressed.readableBytes, Self.sliceSize)) else { return }
            guard !isComplete else { throw Self.failure("bytes follow the end of the compressed body") }
            isStarted = true
            let failure: APIError? = slice.withUnsafeReadableBytes { input in
                guard let base = input.baseAddress else { return nil }
                stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
                stream.pointee.avail_in = uInt(input.count)
                defer {
                    stream.pointee.next_in = nil
                    stream.pointee.avail_in = 0
                }
                return inflateInput(receive)
            }
            if let failure { throw failure }
        }

        /// Ends the body.
        /// - Throws: ``APIError/requestFailed(_:)`` (`cannotDecodeContentData`) for a body cut short.
        func finish() throws(APIError) {
            // An empty body in a coding is an empty body, as libcurl takes it.
            guard isComplete || !isStarted else { throw Self.failure("the compressed body ended before its end") }
        }

        /// Inflates the input set on the stream until it is used up or the compressed body ends.
        private func inflateInput(_ receive: (ByteBuffer) -> Void) -> APIError? {
            while true {
                var piece = ByteBufferAllocator().buffer(capacity: Self.pieceSize)
                var result = Z_OK
                piece.writeWithUnsafeMutableBytes(minimumWritableBytes: Self.pieceSize) { output in
                    guard let base = output.baseAddress else { return 0 }
                    stream.pointee.next_out = base.assumingMemoryBound(to: Bytef.self)
                    stream.pointee.avail_out = uInt(output.count)
                    defer {
                        stream.pointee.next_out = nil
                        stream.pointee.avail_out = 0
                    }
                    result = inflate(stream, Z_NO_FLUSH)
                    return output.count - Int(stream.pointee.avail_out)
                }
                if piece.readableBytes > 0 { receive(piece) }
                switch result {
                case Z_STREAM_END:
                    isComplete = true
                    return stream.pointee.avail_in > 0 ? Self.failure("bytes follow the end of the compressed body") : nil
                case Z_OK:
                    // Output filled up, or input used: go on while either may hold more.
                    if stream.pointee.avail_in == 0, piece.readableBytes < Self.pieceSize { return nil }
                case Z_BUF_ERROR:
                    // No progress possible: the input is used up.
                    return nil
                default:
                    let message = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(result)"
                    return Self.failure("the compressed body does not inflate: \(message)")
                }
            }
        }

        private static func failure(_ description: String) -> APIError {
            .requestFailed(URLError(.cannotDecodeContentData, userInfo: [NSLocalizedDescriptionKey: description]))
        }
    }
#endif
