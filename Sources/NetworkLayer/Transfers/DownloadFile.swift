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

/// The file a download is written to: a partial file beside the destination (``PartialFile``), renamed
/// into place once the body is complete, or deleted — or kept, with its record, for a download to
/// resume, in this process or a later one.
///
/// Each response's body is written after ``begin(appending:)``, which hands out the token its writes
/// carry: a chunk of an earlier response that arrives late is refused. Chunks are written on whatever
/// thread delivers them; ``discard()`` and ``keep()`` may come from another, at any time, and a chunk
/// that arrives after them is refused. The file stays locked until one of them, or ``complete()``.
final class DownloadFile: Sendable {
    private struct State {
        var handle: FileHandle?
        var written: Int64 = 0
        var generation = 0
    }

    private let destination: URL
    /// The partial file.
    let partial: URL
    /// Whether the partial file is the destination's shared one, which the next download to the
    /// destination goes on with.
    let isShared: Bool
    private let state: Locked<State>

    private init(destination: URL, partial: URL, isShared: Bool, claim: PartialFile.Claim) {
        self.destination = destination
        self.partial = partial
        self.isShared = isShared
        state = Locked(State(handle: claim.handle, written: claim.size))
    }

    /// Opens the partial file for a download of `url` to `destination` (a new file in the temporary
    /// directory when it is `nil`): the destination's shared partial file, going on after what it
    /// holds when its record is of the same URL and the bytes fit its length (emptied otherwise), or,
    /// when another download holds that one, a new file of its own.
    /// - Returns: The file, and the record of what it holds when it goes on with it.
    /// - Throws: ``APIError/requestFailed(_:)`` (`.cannotCreateFile`) when no file can be created.
    static func open(for destination: URL?, url: URL?) throws(APIError) -> (DownloadFile, PartialFile.Record?) {
        if let destination {
            let shared = PartialFile.shared(for: destination)
            if var claim = PartialFile.claim(shared, creating: true) {
                var record = PartialFile.readRecord(of: shared)
                if let kept = record, !kept.isOf(url) || claim.size == 0 || claim.size > kept.length {
                    record = nil
                }
                do {
                    if record == nil {
                        // Nothing to go on with: whatever is there is another body's, or of no known body.
                        try claim.handle.truncate(atOffset: 0)
                        claim.size = 0
                        PartialFile.writeRecord(nil, of: shared)
                    }
                    try claim.handle.seekToEnd()
                } catch {
                    try? claim.handle.close()
                    throw fileError(.cannotCreateFile, "could not empty \(shared.path): \(error.localizedDescription)")
                }
                return (DownloadFile(destination: destination, partial: shared, isShared: true, claim: claim), record)
            }
        }
        let destination = destination ?? temporaryDestination(UUID().uuidString)
        let partial = PartialFile.unique(for: destination)
        guard let claim = PartialFile.claim(partial, creating: true, requiringLock: false) else {
            throw fileError(.cannotCreateFile, "could not create \(partial.path)")
        }
        return (DownloadFile(destination: destination, partial: partial, isShared: false, claim: claim), nil)
    }

    /// Opens the partial file of `resumeData` to go on after its bytes (anything after them is cut
    /// off), for a download to `destination`; `nil` when it is missing, shorter, held by another
    /// download, recorded as another body's, or cannot be opened.
    init?(continuing resumeData: DownloadResumeData, destination: URL?) {
        let partial = resumeData.partialFileURL
        let length = resumeData.bytesReceived
        guard length >= 0, let claim = PartialFile.claim(partial, creating: false) else { return nil }
        // The file may hold another body since (a later download to the destination): its record says.
        guard PartialFile.mayHold(resumeData), claim.size >= length,
            (try? claim.handle.truncate(atOffset: UInt64(length))) != nil,
            (try? claim.handle.seekToEnd()) != nil
        else {
            try? claim.handle.close()
            return nil
        }
        self.destination = destination ?? Self.temporaryDestination(UUID().uuidString)
        self.partial = partial
        isShared = destination.map { PartialFile.shared(for: $0) == partial } ?? false
        state = Locked(State(handle: claim.handle, written: length))
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

    /// Writes the record of what the file holds beside it, before the first byte of a body that can be
    /// resumed, or removes it when `record` is `nil`; nothing once the file is closed.
    func setRecord(_ record: PartialFile.Record?) {
        state.withLock { state in
            guard state.handle != nil else { return }
            PartialFile.writeRecord(record, of: partial)
        }
    }

    /// Removes the file's record, renames the file into place, and closes it.
    /// - Returns: Where the file is, and its size.
    /// - Throws: ``APIError/requestFailed(_:)`` (`.cannotMoveFile`) when it cannot be renamed.
    func complete() throws(APIError) -> (URL, Int64) {
        guard let (handle, written) = take() else { throw .cancelled }
        // All of it while still locked: a download that opens the partial file's name afterwards finds
        // another file, or none, and the record it writes is never removed from under it.
        defer { try? handle.close() }
        PartialFile.writeRecord(nil, of: partial)
        // rename(2) replaces an existing file in one step, so the destination is never half written.
        if rename(partial.path, destination.path) != 0 {
            // A partial file kept on another file system (resumed to a new destination) is copied
            // beside the destination first, then renamed.
            let reason = errno == EXDEV ? moveAcrossFileSystems() : String(cString: strerror(errno))
            if let reason {
                unlink(partial.path)
                throw Self.fileError(.cannotMoveFile, "could not move the download to \(destination.path): \(reason)")
            }
        }
        return (destination, written)
    }

    /// Copies the partial file beside the destination and renames it into place; `nil` when that
    /// worked, else why not.
    private func moveAcrossFileSystems() -> String? {
        let copy = PartialFile.unique(for: destination)
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
        unlink(partial.path)
        return nil
    }

    /// Deletes the partial file and its record, and closes it; chunks that still arrive are refused.
    /// Nothing once the file is closed: it may be another download's by then.
    func discard() {
        guard let (handle, _) = take() else { return }
        PartialFile.writeRecord(nil, of: partial)
        unlink(partial.path)
        try? handle.close()
    }

    /// Closes the partial file and leaves it where it is, with its record, for a later download to go
    /// on with; chunks that still arrive are refused.
    /// - Returns: The bytes in it, or `nil` when it was closed already.
    @discardableResult
    func keep() -> Int64? {
        guard let (handle, written) = take() else { return nil }
        try? handle.close()
        return written
    }

    /// Takes the open file out of the state, once, so that no chunk is written to it any more;
    /// `nil` when it was taken already.
    private func take() -> (FileHandle, Int64)? {
        state.withLock { state in
            defer { state.handle = nil }
            return state.handle.map { ($0, state.written) }
        }
    }

    private static func fileError(_ code: URLError.Code, _ description: String) -> APIError {
        .requestFailed(URLError(code, userInfo: [NSLocalizedDescriptionKey: description]))
    }
}
