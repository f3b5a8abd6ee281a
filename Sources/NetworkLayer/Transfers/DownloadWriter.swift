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

/// Observes a download: checks the status as soon as the response arrives, writes an accepted
/// body chunk by chunk to a partial file beside the destination, and on success renames it into
/// place. A rejected status writes no file (up to 64 KiB of its body goes into the error), and a
/// download that fails or is cancelled deletes its partial file before its caller hears of it.
final class DownloadWriter: TransferObserver {
    private struct State {
        var file: FileHandle?
        var written: Int64 = 0
        var expected: Int64?
        var rejected: (response: HTTPURLResponse, body: Data)?
    }

    private enum Step {
        case wrote(Int64, of: Int64?)
        case failed(APIError)
        case ignored
    }

    private let destination: URL
    private let partial: URL
    private let acceptableStatusCodes: Set<Int>
    private let progress: ProgressReporter
    private let continuation: CheckedContinuation<Result<DownloadedFile, APIError>, Never>
    private let state = Locked(State())

    /// The most of a rejected response's body kept for its error; the download stops there.
    static let rejectedBodyLimit = 64 * 1024

    /// - Parameter destination: Where the file goes, or `nil` for a new file in the temporary directory.
    init(
        destination: URL?,
        acceptableStatusCodes: Set<Int>,
        progress: ProgressReporter,
        continuation: CheckedContinuation<Result<DownloadedFile, APIError>, Never>
    ) {
        let name = UUID().uuidString
        let destination = destination ?? FileManager.default.temporaryDirectory.appendingPathComponent("NetworkLayer-\(name).download")
        self.destination = destination
        partial = destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).\(name).partial")
        self.acceptableStatusCodes = acceptableStatusCodes
        self.progress = progress
        self.continuation = continuation
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

    func transfer(_ transfer: Transfer, didReceive response: HTTPURLResponse) {
        guard acceptableStatusCodes.contains(response.statusCode) else {
            state.withLock { $0.rejected = (response, Data()) }
            return
        }
        guard FileManager.default.createFile(atPath: partial.path, contents: nil), let file = try? FileHandle(forWritingTo: partial) else {
            transfer.cancel(.failed(Self.fileError(.cannotCreateFile, "could not create \(partial.path)")))
            return
        }
        let expected = response.expectedContentLength > 0 ? response.expectedContentLength : nil
        state.withLock { state in
            state.file = file
            state.expected = expected
        }
        progress.report(0, of: expected)
    }

    func transfer(_ transfer: Transfer, didReceive data: Data) {
        let step = state.withLock { state -> Step in
            if let file = state.file {
                do {
                    try file.write(contentsOf: data)
                } catch {
                    return .failed(Self.fileError(.cannotWriteToFile, "could not write \(partial.path): \(error.localizedDescription)"))
                }
                state.written += Int64(data.count)
                return .wrote(state.written, of: state.expected)
            }
            guard var rejected = state.rejected else { return .ignored }
            rejected.body.append(data.prefix(Self.rejectedBodyLimit - rejected.body.count))
            state.rejected = rejected
            guard rejected.body.count >= Self.rejectedBodyLimit else { return .ignored }
            let response = HTTPResponse(rejected.response, body: rejected.body)
            return .failed(.unacceptableStatusCode(response.statusCode, response))
        }
        switch step {
        case .wrote(let written, let expected): progress.report(written, of: expected)
        case .failed(let error): transfer.cancel(.failed(error))
        case .ignored: break
        }
    }

    func transfer(_ transfer: Transfer, didCompleteWith result: Result<HTTPURLResponse, APIError>) {
        let (file, written, rejected) = state.withLock { state in
            defer { state.file = nil }
            return (state.file, state.written, state.rejected)
        }
        try? file?.close()
        let outcome = result.flatMap { response in complete(response, written: written, rejectedBody: rejected?.body) }
        if case .failure = outcome {
            try? FileManager.default.removeItem(at: partial)
        }
        let continuation = continuation
        progress.afterReports { continuation.resume(returning: outcome) }
    }

    /// The file once its response is known good and it is in place, or why not.
    private func complete(_ urlResponse: HTTPURLResponse, written: Int64, rejectedBody: Data?) -> Result<DownloadedFile, APIError> {
        guard acceptableStatusCodes.contains(urlResponse.statusCode) else {
            let rejected = HTTPResponse(urlResponse, body: rejectedBody ?? Data())
            return .failure(.unacceptableStatusCode(rejected.statusCode, rejected))
        }
        // An empty body may come with no data callback, and so no file yet.
        if !FileManager.default.fileExists(atPath: partial.path), !FileManager.default.createFile(atPath: partial.path, contents: nil) {
            return .failure(Self.fileError(.cannotCreateFile, "could not create \(partial.path)"))
        }
        // rename(2) replaces an existing file in one step, so the destination is never half written.
        guard rename(partial.path, destination.path) == 0 else {
            let reason = String(cString: strerror(errno))
            return .failure(Self.fileError(.cannotMoveFile, "could not move the download to \(destination.path): \(reason)"))
        }
        progress.finish(total: written)
        return .success(DownloadedFile(fileURL: destination, response: HTTPResponse(urlResponse, body: Data()), byteCount: written))
    }

    private static func fileError(_ code: URLError.Code, _ description: String) -> APIError {
        .requestFailed(URLError(code, userInfo: [NSLocalizedDescriptionKey: description]))
    }
}
