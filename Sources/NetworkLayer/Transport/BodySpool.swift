#if canImport(FoundationNetworking)
    import Foundation
    import FoundationNetworking

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    /// Feeds a Linux response body to its reader, keeping in a temporary file what arrives while the
    /// reader is behind.
    ///
    /// FoundationNetworking cannot pause a transfer: a task suspended mid-body starts again from the
    /// first byte when resumed, and holding back the thread that delivers the body would hold back
    /// every other request of the session. So once the ``ResponseBody``'s reader has fallen its high
    /// watermark behind, every further chunk of that body is appended to an unlinked temporary file,
    /// and handed to the reader from there as it catches up: memory stays at the watermark, the disk
    /// holds what the reader has yet to read, and the file has no name, so nothing is left behind
    /// however the body ends. A reader that keeps up never touches the disk.
    final class BodySpool: Sendable {
        private struct State {
            /// Whether chunks go through the file; once they do, they all do, to keep their order.
            var isSpooling = false
            /// How many times the reader has caught up: a pause answered before a catch-up that came
            /// after it is no pause.
            var demand: UInt64 = 0
            var descriptor: Int32?
            var writeOffset: Int64 = 0
            var readOffset: Int64 = 0
            var isPaused = false
            var isDraining = false
            var drainAgain = false
            /// How the network side ended, `nil` while it goes on; passed on once the file is read.
            var end: APIError??
            var isClosed = false
        }

        private enum Step {
            case chunk(Data)
            case end(APIError?)
        }

        private let writer: ResponseBody.Writer
        private let state = Locked(State())
        /// The most read from the file at a time.
        private static let readSize = 64 * 1024

        init(writer: ResponseBody.Writer) {
            self.writer = writer
        }

        deinit {
            if let descriptor = state.withLock({ $0.descriptor }) { close(descriptor) }
        }

        /// Hands `chunk` to the reader, or to the file while the reader is behind.
        func feed(_ chunk: Data) {
            let (isSpooling, demand) = state.withLock { state in (state.isSpooling, state.demand) }
            guard isSpooling else {
                guard writer.yield(chunk) == .pause else { return }
                state.withLock { state in
                    if state.demand == demand {
                        state.isSpooling = true
                        state.isPaused = true
                    }
                }
                return
            }
            if let failure = append(chunk) {
                writer.finish(throwing: failure)
            }
            drain()
        }

        /// Notes how the network side ended; the reader hears of it after what the file holds.
        func finish(throwing error: APIError?) {
            let isSpooling = state.withLock { state in
                state.end = .some(error)
                return state.isSpooling
            }
            guard isSpooling else {
                if let error { writer.finish(throwing: error) } else { writer.finish() }
                return
            }
            drain()
        }

        /// The reader has caught up: hand it what the file holds.
        func readerCaughtUp() {
            let isSpooling = state.withLock { state in
                state.demand &+= 1
                state.isPaused = false
                return state.isSpooling
            }
            if isSpooling { drain() }
        }

        private func append(_ chunk: Data) -> APIError? {
            state.withLock { state -> APIError? in
                guard !state.isClosed, state.end == nil else { return nil }
                if state.descriptor == nil {
                    let path = FileManager.default.temporaryDirectory.appendingPathComponent("NetworkLayer-body-\(UUID().uuidString)").path
                    let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
                    guard descriptor >= 0 else {
                        state.isClosed = true
                        return Self.fileError(.cannotCreateFile, "could not keep the response body in \(path)")
                    }
                    unlink(path)
                    state.descriptor = descriptor
                }
                guard let descriptor = state.descriptor, Self.write(chunk, to: descriptor, at: state.writeOffset) else {
                    state.isClosed = true
                    return Self.fileError(.cannotWriteToFile, "could not keep the response body in a temporary file")
                }
                state.writeOffset += Int64(chunk.count)
                return nil
            }
        }

        /// Hands the reader what the file holds until it asks to wait again or the file is read; one
        /// drain at a time (the network's thread and the reader's may both call it).
        private func drain() {
            let proceeds = state.withLock { state -> Bool in
                guard !state.isDraining else {
                    state.drainAgain = true
                    return false
                }
                state.isDraining = true
                return true
            }
            guard proceeds else { return }
            while let (step, demand) = nextStep() {
                switch step {
                case .chunk(let chunk):
                    switch writer.yield(chunk) {
                    case .more: break
                    case .pause: state.withLock { if $0.demand == demand { $0.isPaused = true } }
                    case .dropped: state.withLock { $0.isClosed = true }
                    }
                case .end(let error):
                    if let error { writer.finish(throwing: error) } else { writer.finish() }
                }
            }
        }

        /// The next thing to hand the reader, with the reader's catch-ups so far, or `nil` (and no
        /// drain under way) when there is nothing for now.
        private func nextStep() -> (Step, UInt64)? {
            state.withLock { state -> (Step, UInt64)? in
                while true {
                    if !state.isClosed, !state.isPaused, state.readOffset < state.writeOffset, let descriptor = state.descriptor {
                        let count = Int(min(Int64(Self.readSize), state.writeOffset - state.readOffset))
                        var chunk = Data(count: count)
                        let read = chunk.withUnsafeMutableBytes { bytes in
                            pread(descriptor, bytes.baseAddress, count, off_t(state.readOffset))
                        }
                        guard read == count else {
                            state.isClosed = true
                            return (
                                .end(Self.fileError(.cannotOpenFile, "could not read back the response body from its temporary file")),
                                state.demand
                            )
                        }
                        state.readOffset += Int64(count)
                        return (.chunk(chunk), state.demand)
                    }
                    if !state.isClosed, state.readOffset == state.writeOffset, let end = state.end {
                        state.isClosed = true
                        return (.end(end), state.demand)
                    }
                    guard state.drainAgain else {
                        state.isDraining = false
                        return nil
                    }
                    state.drainAgain = false
                }
            }
        }

        private static func write(_ chunk: Data, to descriptor: Int32, at offset: Int64) -> Bool {
            chunk.withUnsafeBytes { bytes in
                var written = 0
                while written < bytes.count {
                    let result = pwrite(
                        descriptor, bytes.baseAddress.map { $0 + written }, bytes.count - written, off_t(offset) + off_t(written))
                    guard result > 0 else { return false }
                    written += result
                }
                return true
            }
        }

        private static func fileError(_ code: URLError.Code, _ description: String) -> APIError {
            .requestFailed(URLError(code, userInfo: [NSLocalizedDescriptionKey: description]))
        }
    }
#endif
