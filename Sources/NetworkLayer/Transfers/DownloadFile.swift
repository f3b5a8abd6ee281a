import Foundation

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

/// The file a download is written to: a partial file beside the destination, renamed into place
/// once the body is complete, or deleted.
///
/// Chunks are written on whatever thread delivers them; ``discard()`` may come from another, at any
/// time, and a chunk that arrives after it is refused.
final class DownloadFile: Sendable {
    private struct State {
        var handle: FileHandle?
        var written: Int64 = 0
    }

    private let destination: URL
    private let partial: URL
    private let state: Locked<State>

    /// Creates the partial file for a download to `destination`, or to a new file in the temporary
    /// directory when it is `nil`.
    /// - Throws: ``APIError/requestFailed(_:)`` (`.cannotCreateFile`) when the file cannot be created.
    init(destination: URL?) throws(APIError) {
        let name = UUID().uuidString
        let destination = destination ?? FileManager.default.temporaryDirectory.appendingPathComponent("NetworkLayer-\(name).download")
        let partial = destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).\(name).partial")
        guard FileManager.default.createFile(atPath: partial.path, contents: nil), let handle = try? FileHandle(forWritingTo: partial)
        else {
            throw Self.fileError(.cannotCreateFile, "could not create \(partial.path)")
        }
        self.destination = destination
        self.partial = partial
        state = Locked(State(handle: handle))
    }

    /// Creates the destination's directory if needed, before anything is sent.
    static func prepareDirectory(for destination: URL?) throws(APIError) {
        guard let directory = destination?.deletingLastPathComponent() else { return }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw fileError(.cannotCreateFile, "could not create the directory \(directory.path): \(error.localizedDescription)")
        }
    }

    /// Appends `chunk` and returns the bytes written so far.
    /// - Throws: ``APIError/requestFailed(_:)`` (`.cannotWriteToFile`) when the write fails or the file was discarded.
    func write(_ chunk: Data) throws(APIError) -> Int64 {
        let result = state.withLock { state -> Result<Int64, APIError> in
            guard let handle = state.handle else { return .failure(.cancelled) }
            do {
                try handle.write(contentsOf: chunk)
            } catch {
                return .failure(Self.fileError(.cannotWriteToFile, "could not write \(partial.path): \(error.localizedDescription)"))
            }
            state.written += Int64(chunk.count)
            return .success(state.written)
        }
        return try result.get()
    }

    /// Closes the file and renames it into place.
    /// - Returns: Where the file is, and its size.
    /// - Throws: ``APIError/requestFailed(_:)`` (`.cannotMoveFile`) when it cannot be renamed.
    func complete() throws(APIError) -> (URL, Int64) {
        let (handle, written) = state.withLock { state in
            defer { state.handle = nil }
            return (state.handle, state.written)
        }
        guard let handle else { throw .cancelled }
        try? handle.close()
        // rename(2) replaces an existing file in one step, so the destination is never half written.
        guard rename(partial.path, destination.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: partial)
            throw Self.fileError(.cannotMoveFile, "could not move the download to \(destination.path): \(reason)")
        }
        return (destination, written)
    }

    /// Closes and deletes the partial file; chunks that still arrive are refused.
    func discard() {
        let handle = state.withLock { state in
            defer { state.handle = nil }
            return state.handle
        }
        try? handle?.close()
        try? FileManager.default.removeItem(at: partial)
    }

    private static func fileError(_ code: URLError.Code, _ description: String) -> APIError {
        .requestFailed(URLError(code, userInfo: [NSLocalizedDescriptionKey: description]))
    }
}
