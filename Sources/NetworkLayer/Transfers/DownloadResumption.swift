import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How one download call goes on where an attempt stopped: it keeps the partial file, the body's
/// validator and length across the call's attempts, asks each new exchange for the rest of the body,
/// and decides from the answer whether the file goes on or starts over (its ``Plan``).
///
/// It is a plain ``Interceptor``, the download call's outermost: every exchange of every attempt,
/// each redirect hop included, goes through ``intercept(_:context:next:)``, after the adapters and
/// before the client's own interceptors (which see the `Range` it adds). Once the file holds part of
/// a body whose `200` had a length and a
/// validator (a strong `ETag`, else `Last-Modified`) and no `Content-Encoding`, the request gets
/// `Range: bytes=N-` and `If-Range`. The answer then sets the ``Plan`` the body is written by:
/// - `206` whose `Content-Range` is `bytes N-(L-1)/L` for the known length `L`, with no other
///   validator and no `Content-Encoding`: the rest, appended;
/// - `200` (the validator changed, or the server has no ranges): the whole body, the file emptied;
/// - `416` when the file holds all `L` bytes already: complete, nothing to read;
/// - any other `206` or `416`: let go, and the request sent again without `Range`, once, for the
///   whole body;
/// - anything else: the whole body, if its status is accepted at all (a rejected one writes nothing
///   and keeps the file for the next attempt).
///
/// Only a `GET` the caller put no `Range` on takes part; any other download writes each attempt's
/// body from the start, as a plain download.
final class DownloadResumption: Interceptor {
    /// How the body of the current exchange goes to the file.
    enum Plan: Equatable {
        /// The whole body, from the start: the file is emptied first.
        case whole
        /// The rest of a body `length` long, after the `offset` bytes in the file.
        case rest(offset: Int64, length: Int64)
        /// Nothing: the file holds the whole body, `length` bytes, already.
        case complete(length: Int64)
    }

    /// What proves that an answer continues the body in the file.
    private struct Validator: Equatable {
        var entityTag: String?
        var lastModified: String?
        var length: Int64

        /// The value of `If-Range`: the strong tag, else the date.
        var ifRange: String? { DownloadResumeData.ifRange(entityTag: entityTag, lastModified: lastModified) }

        /// Whether `head` says nothing against this validator: any strong `ETag` it has is ours, and
        /// its `Last-Modified` too when that is what we go by.
        func admits(_ head: HTTPResponse) -> Bool {
            if let tag = head.headers["ETag"], DownloadResumeData.isStrongEntityTag(tag), let entityTag, tag != entityTag { return false }
            if entityTag == nil, let date = head.headers["Last-Modified"], date != lastModified { return false }
            return true
        }
    }

    private struct State {
        var validator: Validator?
        var plan = Plan.whole
    }

    /// The file the call writes to, kept across its attempts.
    let file: DownloadFile
    /// Whether the request may be resumed at all: a `GET` without a `Range` of the caller's.
    private let isEnabled: Bool
    /// The URL asked for, before any redirect: what the file's record names.
    private let url: URL?
    private let state: Locked<State>

    /// The resumption of a download of `request` into `file`.
    /// - Parameters:
    ///   - file: The partial file; holding the bytes of `resumeData` when it is given.
    ///   - request: The request as built.
    ///   - hasUpload: Whether a body goes beside the request.
    ///   - resumeData: What an earlier download left, when `file` continues it; `nil` by default.
    init(file: DownloadFile, request: URLRequest, hasUpload: Bool, resumeData: DownloadResumeData? = nil) {
        self.file = file
        url = request.url
        isEnabled =
            HTTPMethod(rawValue: request.httpMethod ?? "GET").normalized == .get && !hasUpload
            && request.value(forHTTPHeaderField: "Range") == nil
        var state = State()
        if isEnabled, let resumeData, resumeData.ifRange != nil, resumeData.expectedBytes >= resumeData.bytesReceived {
            state.validator = Validator(
                entityTag: resumeData.entityTag.flatMap { DownloadResumeData.isStrongEntityTag($0) ? $0 : nil },
                lastModified: resumeData.lastModified, length: resumeData.expectedBytes)
        }
        self.state = Locked(state)
    }

    /// Whether `resumeData` can be resumed by a `GET` at all: a safe validator, sizes that add up, and
    /// a partial file named as this library names them.
    static func canResume(_ resumeData: DownloadResumeData) -> Bool {
        resumeData.ifRange != nil && resumeData.bytesReceived > 0 && resumeData.expectedBytes >= resumeData.bytesReceived
            && PartialFile.isPartialFileName(resumeData.partialFileURL)
    }

    /// How the body of the exchange just sent goes to the file; taken once, so that an answer that
    /// never reached ``send(_:through:)`` (a middleware's own) is written whole.
    func takePlan() -> Plan {
        state.withLock { state in
            defer { state.plan = .whole }
            return state.plan
        }
    }

    /// Sends each exchange through the rest of the chain with ``send(_:through:)``; a redirect's
    /// last hop sets the plan.
    func intercept(
        _ request: URLRequest,
        context: RequestContext,
        next: (URLRequest) async throws(APIError) -> TransportResponse
    ) async throws(APIError) -> TransportResponse {
        try await send(request, through: next)
    }

    /// Sends one exchange with `send`: for the rest of the body when the file holds part of it, and
    /// sets the ``plan`` its answer is written by.
    func send(
        _ request: URLRequest,
        through send: (URLRequest) async throws(APIError) -> TransportResponse
    ) async throws(APIError) -> TransportResponse {
        let offset = file.written
        let validator = state.withLock { state in
            state.plan = .whole
            return state.validator
        }
        guard isEnabled, offset > 0, let validator, let ifRange = validator.ifRange else { return try await send(request) }
        var ranged = request
        ranged.setValue("bytes=\(offset)-", forHTTPHeaderField: "Range")
        ranged.setValue(ifRange, forHTTPHeaderField: "If-Range")
        let response = try await send(ranged)
        let head = response.head
        let encoded = head.headers["Content-Encoding"].map { !Self.isIdentity($0) } ?? false
        let range = head.headers["Content-Range"].flatMap(ContentRange.init)
        let plan: Plan?
        switch head.statusCode {
        case 206:
            let continues =
                !encoded && validator.admits(head)
                && range == .range(first: offset, last: validator.length - 1, completeLength: validator.length)
            plan = continues ? .rest(offset: offset, length: validator.length) : nil
        case 416:
            let fits = range == nil || range == .unsatisfied(completeLength: validator.length)
            plan = offset == validator.length && fits && validator.admits(head) ? .complete(length: offset) : nil
        default:
            plan = .whole
        }
        guard let plan else {
            // An answer that does not continue the file: let it go and ask for the whole body.
            response.body.cancel()
            state.withLock { $0.validator = nil }
            return try await send(request)
        }
        state.withLock { $0.plan = plan }
        guard case .complete(let length) = plan else { return response }
        response.body.cancel()
        // Nothing more to read: the answer is the file as it stands, under a 200 of its own.
        var headers = HTTPHeaders()
        if let entityTag = validator.entityTag { headers.add(name: "ETag", value: entityTag) }
        if let lastModified = validator.lastModified { headers.add(name: "Last-Modified", value: lastModified) }
        headers.add(name: "Content-Length", value: String(length))
        return TransportResponse(head: HTTPResponse(statusCode: 200, headers: headers, url: head.url))
    }

    /// Notes the validator and length of a whole body's `head`, for the next attempt to resume, and
    /// writes them to the file's record for a later process: only a `200` with a `Content-Length`, a
    /// strong `ETag` or a `Last-Modified`, and no `Content-Encoding`. Called after the file was
    /// emptied and before the body's first byte, so the record never speaks of another body's bytes.
    func begin(whole head: HTTPResponse) {
        var validator: Validator?
        if isEnabled, head.statusCode == 200, let length = head.expectedContentLength,
            head.headers["Content-Encoding"].map(Self.isIdentity) ?? true
        {
            let tag = head.headers["ETag"].flatMap { DownloadResumeData.isStrongEntityTag($0) ? $0 : nil }
            let candidate = Validator(entityTag: tag, lastModified: head.headers["Last-Modified"], length: length)
            validator = candidate.ifRange == nil ? nil : candidate
        }
        state.withLock { $0.validator = validator }
        file.setRecord(
            validator.flatMap { validator in
                url.map {
                    PartialFile.Record(
                        url: $0, entityTag: validator.entityTag, lastModified: validator.lastModified, length: validator.length)
                }
            })
    }

    /// Ends a call that failed: keeps the partial file and its record, and answers what resumes it,
    /// when there is something to resume, else deletes them.
    func interrupt() -> DownloadResumeData? {
        let validator = state.withLock { $0.validator }
        let bytes = file.written
        guard let validator, let url, bytes > 0, bytes <= validator.length, file.keep() != nil else {
            file.discard()
            return nil
        }
        return DownloadResumeData(
            url: url, entityTag: validator.entityTag, lastModified: validator.lastModified, bytesReceived: bytes,
            expectedBytes: validator.length, partialFileURL: file.partial)
    }

    private static func isIdentity(_ contentEncoding: String) -> Bool {
        let trimmed = contentEncoding.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty || trimmed.lowercased() == "identity"
    }
}
