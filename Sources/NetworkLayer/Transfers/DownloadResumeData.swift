import Foundation

/// What it takes to resume a download that failed part way: the partial file, how much of the body it
/// holds, and the validator that proves a later answer continues the same body.
///
/// ``APIClient/download(resuming:for:to:progress:)`` hands one back inside
/// ``APIError/downloadInterrupted(_:resumeData:)`` when it fails after part of a resumable body is on
/// disk, and takes it to carry on from there — in this process or a later one (it is `Codable`, so it
/// can be stored), from the same URL or a new one (a re-signed link), as long as the server's validator
/// still matches.
///
/// The partial file is then yours: resuming consumes it (renamed into place, or deleted when the
/// download cannot be resumed after all), and ``discard()`` deletes it when you give up.
public struct DownloadResumeData: Sendable, Hashable, Codable {
    /// The URL the download was sent to, for your records (`nil` for a partial file whose record is
    /// gone); resuming may send to another.
    let url: URL?
    /// The strong `ETag` of the body (as the server sent it, quotes included), or `nil` when it sent
    /// none or a weak one (`W/"…"`): weak tags never drive `If-Range`.
    let entityTag: String?
    /// The `Last-Modified` of the body, used as the validator when there is no strong `entityTag`.
    let lastModified: String?
    /// The bytes of the body in the partial file: the resumed request asks for the rest (`Range: bytes=N-`).
    public let bytesReceived: Int64
    /// The length of the whole body, its `Content-Length`: a resumed answer must be a range of this length.
    public let expectedBytes: Int64
    /// The partial file, a hidden file beside the first download's destination (`.NAME.partial`, or
    /// `.NAME.UUID.partial` when another download held that one). Resuming and ``discard()`` touch it
    /// only when its name has that shape (a hidden file whose name ends in `.partial`), so that resume
    /// data read back from storage cannot make them overwrite or delete a file of another kind.
    let partialFileURL: URL

    /// Creates resume data; mainly for tests, and for storage formats of your own.
    /// - Parameters:
    ///   - url: The URL the download was sent to.
    ///   - entityTag: The strong `ETag`, or `nil`.
    ///   - lastModified: The `Last-Modified`, or `nil`.
    ///   - bytesReceived: The bytes in the partial file.
    ///   - expectedBytes: The length of the whole body.
    ///   - partialFileURL: The partial file.
    init(url: URL?, entityTag: String?, lastModified: String?, bytesReceived: Int64, expectedBytes: Int64, partialFileURL: URL) {
        self.url = url
        self.entityTag = entityTag
        self.lastModified = lastModified
        self.bytesReceived = bytesReceived
        self.expectedBytes = expectedBytes
        self.partialFileURL = partialFileURL
    }

    /// Deletes the partial file and its record: for when you give up on the download instead of
    /// resuming it. A partial file a download is writing right now is left alone.
    public func discard() {
        // Not when its record says it holds another body by now: a later download's.
        guard PartialFile.mayHold(self) else { return }
        PartialFile.remove(partialFileURL)
    }

    /// When the partial file was last written, or `nil` when it is gone: to tell abandoned partial
    /// files from ``partialDownloads(in:)`` by age.
    public var modificationDate: Date? {
        (try? FileManager.default.attributesOfItem(atPath: partialFileURL.path))?[.modificationDate] as? Date
    }

    /// The partial files in `directory` that no download is writing now — left by downloads that
    /// failed, were killed with their process, or were never resumed — each with what it takes to
    /// resume it: for a cleanup by age (``modificationDate``) and size (``bytesReceived``), or to
    /// resume one with ``APIClient/download(resuming:for:to:progress:)``.
    ///
    /// Downloads without a destination keep theirs in `FileManager.default.temporaryDirectory`.
    /// ``expectedBytes`` is `0` for a file whose body's length was never known; such a file cannot be
    /// resumed.
    /// - Parameter directory: The directory of the downloads' destinations.
    /// - Returns: The partial files, by name; none when the directory cannot be read.
    public static func partialDownloads(in directory: URL) -> [DownloadResumeData] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        return names.sorted().compactMap { name in
            let partial = directory.appendingPathComponent(name)
            guard PartialFile.isPartialFileName(partial), let claim = PartialFile.claim(partial, creating: false) else { return nil }
            defer { try? claim.handle.close() }
            let record = PartialFile.readRecord(of: partial)
            return DownloadResumeData(
                url: nil, entityTag: record?.entityTag, lastModified: record?.lastModified, bytesReceived: claim.size,
                expectedBytes: record?.length ?? 0, partialFileURL: partial)
        }
    }

    /// The value of `If-Range`: the strong `ETag`, else `Last-Modified`; `nil` when neither is safe
    /// to send (missing, weak, or holding a control character), and so nothing can be resumed.
    var ifRange: String? { Self.ifRange(entityTag: entityTag, lastModified: lastModified) }

    /// The value of `If-Range` for these validators: `entityTag` when it is strong, else `lastModified`
    /// when it is safe to send, else `nil`.
    static func ifRange(entityTag: String?, lastModified: String?) -> String? {
        if let entityTag, isStrongEntityTag(entityTag) { return entityTag }
        if let lastModified, isFieldValue(lastModified) { return lastModified }
        return nil
    }

    /// Whether `tag` is a strong entity tag: `"…"` of visible characters, without the weak prefix `W/`.
    static func isStrongEntityTag(_ tag: String) -> Bool {
        let bytes = Array(tag.utf8)
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "\""), bytes.last == UInt8(ascii: "\"") else { return false }
        // etagc: "!", "#" to "~", and obs-text; never a quote, a space or a control character inside.
        return bytes.dropFirst().dropLast().allSatisfy { $0 == 0x21 || (0x23...0x7E).contains($0) || $0 >= 0x80 }
    }

    /// Whether `value` can go in a header as it is: not empty, visible characters and spaces only.
    static func isFieldValue(_ value: String) -> Bool {
        !value.isEmpty && value.utf8.allSatisfy { $0 == UInt8(ascii: " ") || (0x21...0x7E).contains($0) }
    }
}
