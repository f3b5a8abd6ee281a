import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension APIClient {
    /// Sends `endpoint` and writes the response body to a file, chunk by chunk, so that memory stays
    /// flat however large the body is.
    ///
    /// The status is checked as soon as the response arrives: one outside ``ClientConfiguration/acceptableStatusCodes``
    /// fails with ``APIError/unacceptableStatusCode(_:_:)`` (with up to 64 KiB of its body) and
    /// writes no file. The body goes to a partial file beside `destination`, renamed into place
    /// only once it is complete, so an existing file there is replaced only by a whole download.
    /// Cancelling (or a body over the download limit) deletes the partial file and closes the
    /// connection. Any other failure after part of a
    /// resumable body is written keeps it, with a record of the URL and the body's validator and
    /// length, and the next download of the same URL to the same destination goes on from there —
    /// in this process or after it died (see ``DownloadResumeData/partialDownloads(in:)`` to remove
    /// abandoned ones); a changed validator starts it over. Every attempt
    /// goes through the ``ClientConfiguration/interceptors``; a retried `GET` (by ``RetryPolicy``, say) resumes where the
    /// attempt before stopped when the server allows it: `Range: bytes=N-` with `If-Range` (a strong
    /// `ETag`, else `Last-Modified`) is added after the adapters, a `206` that continues the file is
    /// appended and progress goes on from `N`, and a `200` starts the file over. To resume in a later
    /// call, use ``APIClient/download(resuming:for:to:progress:)``.
    /// Each chunk is written as it arrives, so a disk slower than the network holds the transfer
    /// back rather than filling memory.
    ///
    /// The timeout (the endpoint's, else the transport's) is an idle timeout, as for every call: it
    /// restarts with every chunk received, so a large download that keeps moving never times out.
    /// - Parameters:
    ///   - endpoint: The request to send; an upload task's body is sent too.
    ///   - destination: Where to put the file, its directory created if needed; by default a new
    ///     file in the temporary directory, which is then yours to move or delete.
    ///   - progress: Called with the bytes received so far and the `Content-Length` when the server
    ///     sent one, in order and only ever growing, ending with all of them; on an arbitrary
    ///     thread, so keep it quick. `nil` by default.
    /// - Returns: Where the file is, with the response's status and headers.
    /// - Throws: Any ``APIError`` but the decoding ones; a file that cannot be written fails with
    ///   ``APIError/requestFailed(_:)`` (`URLError` `.cannotCreateFile`, `.cannotWriteToFile` or `.cannotMoveFile`).
    public func download(
        for endpoint: some Endpoint,
        to destination: URL? = nil,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(APIError) -> DownloadedFile {
        try await download(try makeCall(for: endpoint), to: destination, resuming: nil, progress: progress)
    }

    /// Sends a request you built yourself and writes the response body to a file, like
    /// ``APIClient/download(for:to:progress:)``.
    public func download(
        with request: URLRequest,
        to destination: URL? = nil,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(APIError) -> DownloadedFile {
        try await download(makeCall(for: request), to: destination, resuming: nil, progress: progress)
    }

    /// Sends `endpoint` and writes the response body to a file like
    /// ``APIClient/download(for:to:progress:)-(Endpoint,_,_)``, but keeps what it got when it fails, so
    /// that a later call resumes it: from `resumeData` when it is given, else from the first byte.
    ///
    /// When the call fails after part of a resumable body is in the partial file (a `GET` whose `200`
    /// had a `Content-Length`, a strong `ETag` or a `Last-Modified`, and no `Content-Encoding`), it
    /// throws ``APIError/downloadInterrupted(_:resumeData:)``, with the error it failed with and the
    /// ``DownloadResumeData`` to pass here again, in this process or a later one — cancelling
    /// included. The partial file is then yours: resuming consumes it, and
    /// ``DownloadResumeData/discard()`` deletes it. Any other failure throws its error and deletes the
    /// partial file, as a plain download does.
    ///
    /// A resumed call asks for the rest (`Range: bytes=N-`, `If-Range` with the validator) and may go to
    /// a new URL (a re-signed link): the server's answer decides, as for a retried download. A `206`
    /// that continues the file is appended and progress goes on from `N`; a `200` (the body changed,
    /// or the server has no ranges) starts the file over. Resume data that does not match its partial
    /// file (missing, shorter, or no usable validator) starts over too, deleting it.
    /// - Parameters:
    ///   - resumeData: What an earlier call's ``APIError/downloadInterrupted(_:resumeData:)`` carried,
    ///     or ``DownloadResumeData/partialDownloads(in:)`` listed; `nil` to go on as a plain download
    ///     does (from what an earlier download to the destination left, else from the first byte).
    ///   - endpoint: The request to send, for the same body: its URL may differ from the first one's.
    ///   - destination: Where to put the file, as for a plain download; `nil` by default. The partial
    ///     file stays where the first call put it until it is complete.
    ///   - progress: As for a plain download, starting from the bytes already there; `nil` by default.
    /// - Returns: Where the file is, with the last response's status and headers.
    /// - Throws: ``APIError/downloadInterrupted(_:resumeData:)`` as above, else what a plain download throws.
    public func download(
        resuming resumeData: DownloadResumeData?,
        for endpoint: some Endpoint,
        to destination: URL? = nil,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(APIError) -> DownloadedFile {
        try await download(try makeCall(for: endpoint), to: destination, resuming: .some(resumeData), progress: progress)
    }

    /// Sends a request you built yourself, keeping what it got when it fails, like
    /// ``APIClient/download(resuming:for:to:progress:)``.
    public func download(
        resuming resumeData: DownloadResumeData?,
        with request: URLRequest,
        to destination: URL? = nil,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(APIError) -> DownloadedFile {
        try await download(makeCall(for: request), to: destination, resuming: .some(resumeData), progress: progress)
    }

    /// The one download path.
    /// - Parameters:
    ///   - resuming: `nil` for a plain download, whose partial file goes when it fails; else the resume
    ///     data to go on from (`nil` inside: from the first byte), for a download that keeps it.
    private func download(
        _ call: Call,
        to destination: URL?,
        resuming: DownloadResumeData??,
        progress handler: (@Sendable (TransferProgress) -> Void)?
    ) async throws(APIError) -> DownloadedFile {
        try DownloadFile.prepareDirectory(for: destination)
        let prepared = try await PreparedBody.prepare(call.upload, for: call.request)
        defer { prepared.cleanUp() }
        let resumption = try Self.resumption(of: call, to: destination, from: resuming ?? nil)
        let progress = ProgressReporter(handler)
        // The resumption is the call's outermost interceptor: the client's see the Range it adds.
        var call = call
        call.interceptors.insert(resumption, at: 0)
        do {
            return try await perform(call, body: prepared, delivery: .streamed, limit: .download, response: \.response) {
                received async throws(APIError) in
                try await Self.write(received, with: resumption, progress: progress)
            }
        } catch {
            // What it got is kept for a later call: handed back when the caller asked for resume
            // data; else left in the destination's shared partial file, for the next download there,
            // unless the caller cancelled or the body is over the limit (the next would be too).
            let keeps: Bool
            switch error {
            case _ where resuming != nil: keeps = true
            case .cancelled, .responseTooLarge: keeps = false
            default: keeps = resumption.file.isShared
            }
            if keeps, let resumeData = resumption.interrupt() {
                if resuming != nil { throw .downloadInterrupted(error, resumeData: resumeData) }
            } else {
                resumption.file.discard()
            }
            throw error
        }
    }

    /// The resumption of `call`'s download: going on from `resumeData` when it matches its partial
    /// file (else deleting it), or from what an earlier download of the same URL left in the
    /// destination's shared partial file, or from the first byte.
    private static func resumption(
        of call: Call,
        to destination: URL?,
        from resumeData: DownloadResumeData?
    ) throws(APIError) -> DownloadResumption {
        let hasUpload = call.upload != nil
        if let resumeData {
            let file =
                DownloadResumption.canResume(resumeData)
                ? DownloadFile(continuing: resumeData, destination: destination) : nil
            if let file {
                return DownloadResumption(file: file, request: call.request, hasUpload: hasUpload, resumeData: resumeData)
            }
            resumeData.discard()
        }
        let (file, record) = try DownloadFile.open(for: destination, url: call.request.url)
        let earlier = record.map {
            DownloadResumeData(
                url: call.request.url, entityTag: $0.entityTag, lastModified: $0.lastModified, bytesReceived: file.written,
                expectedBytes: $0.length, partialFileURL: file.partial)
        }
        return DownloadResumption(file: file, request: call.request, hasUpload: hasUpload, resumeData: earlier)
    }

    /// Writes an accepted response's body to the file by the resumption's plan, reporting progress,
    /// and renames the file into place once it is whole.
    private static func write(
        _ received: TransportResponse,
        with resumption: DownloadResumption,
        progress: ProgressReporter
    ) async throws(APIError) -> DownloadedFile {
        let file = resumption.file
        let plan = resumption.takePlan()
        let expected: Int64?
        let generation: Int
        switch plan {
        case .whole:
            generation = try file.begin(appending: false)
            resumption.begin(whole: received.head)
            expected = received.head.expectedContentLength
            progress.report(0, of: expected)
        case .rest(let offset, let length):
            generation = try file.begin(appending: true)
            expected = length
            progress.report(offset, of: length)
        case .complete(let length):
            generation = try file.begin(appending: true)
            expected = length
        }
        try await received.body.consume { chunk throws(APIError) in
            let written = try file.write(chunk, generation: generation)
            if case .rest(_, let length) = plan, written > length {
                throw .requestFailed(
                    URLError(
                        .badServerResponse,
                        userInfo: [NSLocalizedDescriptionKey: "the resumed body went past its length of \(length) bytes"]))
            }
            progress.report(written, of: expected)
        }
        if case .rest(_, let length) = plan, file.written != length {
            // The body ended early without the transport noticing: what is there is kept for the next attempt.
            throw .requestFailed(
                URLError(
                    .networkConnectionLost,
                    userInfo: [NSLocalizedDescriptionKey: "the resumed body ended at \(file.written) of \(length) bytes"]))
        }
        let (url, written) = try file.complete()
        progress.finish(total: written)
        await progress.delivered()
        return DownloadedFile(fileURL: url, response: received.head, byteCount: written)
    }
}
