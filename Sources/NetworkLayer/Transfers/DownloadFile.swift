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
/// once the body is complete, or deleted — or kept, for a download to resume.
///
/// Each response's body is written after ``begin(appending:)``, which hands out the token its writes
/// carry: a chunk of an earlier response that arrives late is refused. Chunks are written on whatever
/// thread delivers them; ``discard()`` and ``keep()`` may come from another, at any time, and a chunk
/// that arrives after them is refused.
final class DownloadFile: Sendable {
    private struct State {
        var handle: FileHandle?
        var written: Int64 = 0
        var generation = 0
    }

    private let destination: URL
    /// The partial file.
    let partial: URL
    private let state: Locked<State>

    /// Creates the partial file for a download to `destination`, or to a new file in the temporary
    /// directory when it is `nil`.
    /// - Throws: ``APIError/requestFailed(_:)`` (`.cannotCreateFile`) when the file cannot be created.
    init(destination: URL?) throws(APIError) {
        let name = UUID().uuidString
        let destination = destination ?? Self.temporaryDestination(name)
        let partial = destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).\(name).partial")
        guard FileManager.default.createFile(atPath: partial.path, contents: nil), let handle = try? FileHandle(forWritingTo: partial)
        else {
            throw Self.fileError(.cannotCreateFile, "could not create \(partial.path)")
        }
        self.destination = destination
        self.partial = partial
        state = Locked(State(handle: handle))
    }

    /// Opens the partial file of an earlier download to go on after its first `length` bytes (anything
    /// after them is cut off), for a download to `destination`; `nil` when it is missing, shorter than
    /// `length` or cannot be opened.
    init?(continuing partial: URL, length: Int64, destination: URL?) {
        guard length >= 0, let attributes = try? FileManager.default.attributesOfItem(atPath: partial.path),
            (attributes[.type] as? FileAttributeType) == .typeRegular,
            let size = (attributes[.size] as? NSNumber)?.int64Value, size >= length,
            let handle = try? FileHandle(forWritingTo: partial)
        else { return nil }
        do {
            try handle.truncate(atOffset: UInt64(length))
            try handle.seekToEnd()
        } catch {
            try? handle.close()
            return nil
        }
        self.destination = destination ?? Self.temporaryDestination(UUID().uuidString)
        self.partial = partial
        state = Locked(State(handle: handle, written: length))
    }

    private static func temporaryDestination(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("NetworkLayer-\(name).download")
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

    /// The bytes in the file so far.
    var written: Int64 { state.withLock { $0.written } }

    /// Starts writing a response's body: after the bytes already there when `appending`, else from
    /// the start (the file emptied). Chunks of the responses before are refused from now on.
    /// - Returns: The token the body's ``write(_:generation:)``s carry.
    /// - Throws: ``APIError/requestFailed(_:)`` (`.cannotWriteToFile`) when the file cannot be emptied;
    ///   ``APIError/cancelled`` once discarded.
    func begin(appending: Bool) throws(APIError) -> Int {
        let result = state.withLock { state -> Result<Int, APIError> in
            guard let handle = state.handle else { return .failure(.cancelled) }
            state.generation += 1
            guard !appending, state.written > 0 else { return .success(state.generation) }
            do {
                try handle.truncate(atOffset: 0)
            } catch {
                return .failure(Self.fileError(.cannotWriteToFile, "could not empty \(partial.path): \(error.localizedDescription)"))
            }
            state.written = 0
            return .success(state.generation)
        }
        return try result.get()
    }

    /// Appends `chunk` of the response that `generation` was handed out for, and returns the bytes
    /// written so far.
    /// - Throws: ``APIError/requestFailed(_:)`` (`.cannotWriteToFile`) when the write fails;
    ///   ``APIError/cancelled`` when the file was discarded or kept, or another response began since.
    func write(_ chunk: Data, generation: Int) throws(APIError) -> Int64 {
        let result = state.withLock { state -> Result<Int64, APIError> in
            guard let handle = state.handle, state.generation == generation else { return .failure(.cancelled) }
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
        guard let written = close() else { throw .cancelled }
        // rename(2) replaces an existing file in one step, so the destination is never half written.
        if rename(partial.path, destination.path) != 0 {
            // A partial file kept on another file system (resumed to a new destination) is copied
            // beside the destination first, then renamed.
            let reason = errno == EXDEV ? moveAcrossFileSystems() : String(cString: strerror(errno))
            if let reason {
                try? FileManager.default.removeItem(at: partial)
                throw Self.fileError(.cannotMoveFile, "could not move the download to \(destination.path): \(reason)")
            }
        }
        return (destination, written)
    }

    /// Copies the partial file beside the destination and renames it into place; `nil` when that
    /// worked, else why not.
    private func moveAcrossFileSystems() -> String? {
        let copy = destination.deletingLastPathComponent().appendingPathComponent(
            ".\(destination.lastPathComponent).\(UUID().uuidString).partial")
        do {
            try FileManager.default.copyItem(at: partial, to: copy)
        } catch {
            return error.localizedDescription
        }
        guard rename(copy.path, destination.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: copy)
            return reason
        }
        try? FileManager.default.removeItem(at: partial)
        return nil
    }

    /// Closes and deletes the partial file; chunks that still arrive are refused.
    func discard() {
        _ = close()
        try? FileManager.default.removeItem(at: partial)
    }

    /// Closes the partial file and leaves it where it is, for a later download to go on with;
    /// chunks that still arrive are refused.
    /// - Returns: The bytes in it, or `nil` when it was closed already.
    func keep() -> Int64? {
        close()
    }

    /// Closes the file, once; returns the bytes in it, or `nil` when it was closed already.
    private func close() -> Int64? {
        let (handle, written) = state.withLock { state in
            defer { state.handle = nil }
            return (state.handle, state.written)
        }
        guard let handle else { return nil }
        try? handle.close()
        return written
    }

    private static func fileError(_ code: URLError.Code, _ description: String) -> APIError {
        .requestFailed(URLError(code, userInfo: [NSLocalizedDescriptionKey: description]))
    }
}
