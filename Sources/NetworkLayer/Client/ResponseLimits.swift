import Foundation

/// How large a response body may grow before the transfer is stopped: one limit for bodies read into
/// memory, and optional ones for downloads to a file and for streams.
///
/// A body is counted as it arrives, after any `Content-Encoding` is undone, so a compressed body is
/// held to the size it inflates to: a 1 MiB gzip bomb stops at the limit, not at the gigabyte it
/// would become. Going past a limit stops the transfer at once, closes its connection and fails with
/// ``APIError/responseTooLarge(_:limit:received:announced:)``; a `Content-Length` over the limit (on a body
/// sent without a content coding) fails as soon as the head arrives, before any of it is read.
///
/// Set them for a client (``ClientConfiguration/responseLimits``, `ClientConfiguration.responseLimits`) and, for
/// the one call that needs more, on its endpoint (``CallOptions/responseLimits``):
///
/// ```swift
/// let client = NetworkClient { $0.responseLimits = ResponseLimits(inMemory: 8 * 1024 * 1024) }
/// ```
public struct ResponseLimits: Sendable, Equatable {
    /// Which of the limits a body went past.
    public enum Kind: Sendable, Equatable {
        /// ``ResponseLimits/inMemory``: a body collected in memory (`send`, `fetch`, `response(for:)`, uploads' answers).
        case inMemory
        /// ``ResponseLimits/download``: a body written to a file by `download(for:)`.
        case download
        /// ``ResponseLimits/stream``: a body read as it arrives through `stream(for:)`.
        case stream
    }

    /// The most bytes of a body collected in memory: what ``APIClient/send(_:as:)``,
    /// ``APIClient/fetch(_:as:)``, ``APIClient/response(for:as:)``,
    /// ``APIClient/response(for:progress:)``, the completion form and uploads' answers
    /// hold. 64 MiB by default.
    ///
    /// A transport collecting a body holds it to this limit whatever its status; a rejected response's
    /// body is then kept for its error only up to 64 KiB.
    public var inMemory: Int64
    /// The most bytes ``APIClient/download(for:to:progress:)`` writes to a file;
    /// `nil` (the default) for no limit: the disk holds the body, not memory.
    public var download: Int64?
    /// The most bytes a ``ResponseStream`` delivers, counted as it is read; `nil` (the default) for no
    /// limit: a stream holds at most its buffer in memory however long it runs.
    public var stream: Int64?

    /// The default of ``inMemory``: 64 MiB.
    ///
    /// Large enough for real APIs: a JSON answer is kilobytes to a few MiB, and even an export of tens
    /// of MiB fits; a body larger than that is better downloaded to a file or streamed. Small enough
    /// that a hostile or broken server cannot take the process down: a body collected in memory costs
    /// about its size (decoding it, a few times more), so one call costs at most about this much, not
    /// the gigabytes an endless or decompressing body would.
    @usableFromInline static let defaultInMemory: Int64 = 64 * 1024 * 1024

    /// The limits a client has unless given others: 64 MiB in memory, downloads and streams unbounded.
    public static let `default` = ResponseLimits()

    /// Creates limits.
    /// - Parameters:
    ///   - inMemory: The most bytes of a body collected in memory; 64 MiB by default.
    ///   - download: The most bytes a download writes to its file; `nil` (no limit) by default.
    ///   - stream: The most bytes a stream delivers; `nil` (no limit) by default.
    public init(inMemory: Int64 = defaultInMemory, download: Int64? = nil, stream: Int64? = nil) {
        self.inMemory = inMemory
        self.download = download
        self.stream = stream
    }

    /// The limit of `kind`, `nil` when there is none.
    subscript(kind: Kind) -> Int64? {
        switch kind {
        case .inMemory: inMemory
        case .download: download
        case .stream: stream
        }
    }
}

extension ResponseLimits.Kind {
    /// The limit in words, for an error's description: "in-memory", "download", "stream".
    var noun: String {
        switch self {
        case .inMemory: "in-memory"
        case .download: "download"
        case .stream: "stream"
        }
    }

    /// The name of the limit's property of ``ResponseLimits``.
    var property: String {
        switch self {
        case .inMemory: "inMemory"
        case .download: "download"
        case .stream: "stream"
        }
    }
}

extension ResponseLimits {
    /// Whether a response head announces, in its `Content-Length`, a body longer than `limit`: not
    /// when the body is in a content coding (the length is the coded one; the body counted is the
    /// decoded one), nor when no body follows (`HEAD`, 1xx, 204, 304).
    /// - Parameters:
    ///   - limit: The limit.
    ///   - length: The `Content-Length`, if any.
    ///   - statusCode: The response's status.
    ///   - method: The request's method.
    ///   - contentEncoding: The response's `Content-Encoding`, read only when the length is over the limit.
    static func isAnnounced(
        over limit: Int64, length: Int64?, statusCode: Int, method: String?, contentEncoding: @autoclosure () -> String?
    ) -> Bool {
        guard let length, length > limit, statusCode >= 200, statusCode != 204, statusCode != 304, method?.uppercased() != "HEAD"
        else { return false }
        return isIdentity(contentEncoding())
    }

    /// Whether a body of `contentEncoding` is sent as it is (none, empty, or `identity`): only then is
    /// its `Content-Length` the size it has once decoded.
    static func isIdentity(_ contentEncoding: String?) -> Bool {
        guard let coding = contentEncoding?.trimmingCharacters(in: .whitespaces), !coding.isEmpty else { return true }
        return coding.lowercased() == "identity"
    }
}
