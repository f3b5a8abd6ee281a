import Foundation

/// A response body saved to a file by ``APIClient/download(for:to:progress:)``.
public struct DownloadedFile: Sendable, Equatable {
    /// Where the body is. The file is yours: move or delete it when you are done.
    public let fileURL: URL
    /// The response's status, headers and URL; its `body` is empty, since the body is in the file.
    /// For a download that went on from bytes it had, it is the `206 Partial Content` that brought
    /// the rest (its `Content-Range` says from where); a file already whole answers `200`.
    public let response: HTTPResponse
    /// The size of the file in bytes (after any `Content-Encoding` was undone).
    public let byteCount: Int64

    /// Creates a description of a downloaded file; mainly for tests.
    init(fileURL: URL, response: HTTPResponse, byteCount: Int64) {
        self.fileURL = fileURL
        self.response = response
        self.byteCount = byteCount
    }
}
