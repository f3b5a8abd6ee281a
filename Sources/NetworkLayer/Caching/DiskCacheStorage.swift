import Foundation

/// Keeps responses in files in a directory, up to a number of bytes, forgetting the least recently
/// used first; what it holds survives the process.
///
/// Each URL's responses are one file, named by the SHA-256 of the key and written atomically (to a
/// temporary file, then renamed), so a crash never leaves half an entry. A file that cannot be read
/// back (cut short, from another version, or not ours) counts as a miss and is deleted. Reading a
/// key marks its file as used (its modification date), which orders eviction across restarts.
final class DiskCacheStorage: HTTPCacheStorage {
    /// A file's size and when it was last used.
    private struct FileUse {
        var size: Int
        var lastUse: Date
    }

    /// The directory the files are in.
    let directory: URL
    /// The most bytes its files take together.
    let capacity: Int
    private let files: Locked<[String: FileUse]>

    /// Opens (and creates if needed) a store in `directory`, taking in the files already there.
    /// - Parameters:
    ///   - directory: Where the files go; a directory of the cache's own, since files it does not
    ///     recognise there are deleted when read.
    ///   - capacity: The most bytes its files take; 50 MiB by default.
    /// - Throws: The error creating the directory.
    init(directory: URL, capacity: Int = 50 * 1024 * 1024) throws {
        self.directory = directory
        self.capacity = max(0, capacity)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var found: [String: FileUse] = [:]
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        for file in (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys)) ?? []
        where file.pathExtension == "entry" {
            let values = try? file.resourceValues(forKeys: Set(keys))
            found[file.lastPathComponent] = FileUse(size: values?.fileSize ?? 0, lastUse: values?.contentModificationDate ?? .distantPast)
        }
        files = Locked(found)
    }

    /// The bytes its files take now.
    var totalSize: Int { files.withLock { $0.values.reduce(0) { $0 + $1.size } } }

    /// The responses stored for `key`, none when its file is missing or unreadable (which is deleted).
    func responses(for key: String) -> [CachedResponse] {
        let name = Self.fileName(for: key)
        let url = directory.appendingPathComponent(name)
        guard let data = try? Data(contentsOf: url) else { return [] }
        guard let entry = try? JSONDecoder().decode(StoredEntry.self, from: data), entry.key == key else {
            try? FileManager.default.removeItem(at: url)
            files.withLock { $0[name] = nil }
            return []
        }
        let now = Date()
        try? FileManager.default.setAttributes([.modificationDate: now], ofItemAtPath: url.path)
        files.withLock { $0[name] = FileUse(size: data.count, lastUse: now) }
        return entry.responses.map(\.cachedResponse)
    }

    /// Writes the responses of `key` atomically (none deletes its file), then deletes least recently
    /// used files until the store fits.
    func setResponses(_ responses: [CachedResponse], for key: String) {
        let name = Self.fileName(for: key)
        let url = directory.appendingPathComponent(name)
        let entry = StoredEntry(key: key, responses: responses.map(StoredEntry.Response.init))
        guard !responses.isEmpty, let data = try? JSONEncoder().encode(entry), data.count <= capacity,
            (try? data.write(to: url, options: .atomic)) != nil
        else {
            try? FileManager.default.removeItem(at: url)
            files.withLock { $0[name] = nil }
            return
        }
        let evicted = files.withLock { files in
            files[name] = FileUse(size: data.count, lastUse: Date())
            var total = files.values.reduce(0) { $0 + $1.size }
            var evicted: [String] = []
            while total > capacity, let oldest = files.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                files[oldest.key] = nil
                total -= oldest.value.size
                evicted.append(oldest.key)
            }
            return evicted
        }
        for file in evicted { try? FileManager.default.removeItem(at: directory.appendingPathComponent(file)) }
    }

    /// Removes the files of every key for which `shouldRemove` is `true`, reading each file's key;
    /// a file that cannot be read is removed too.
    func removeResponses(where shouldRemove: (String) -> Bool) {
        for name in files.withLock({ Array($0.keys) }) {
            let url = directory.appendingPathComponent(name)
            let key = (try? Data(contentsOf: url)).flatMap { try? JSONDecoder().decode(StoredEntry.self, from: $0) }?.key
            guard key.map(shouldRemove) ?? true else { continue }
            try? FileManager.default.removeItem(at: url)
            files.withLock { $0[name] = nil }
        }
    }

    /// The file of a key: the hex SHA-256 of its UTF-8 bytes.
    private static func fileName(for key: String) -> String {
        SHA256.hexDigest(key) + ".entry"
    }
}

/// A file's content: the key it is for (to reject a file that is not), and its responses.
private struct StoredEntry: Codable {
    struct Response: Codable {
        var statusCode: Int
        var headers: [[String]]
        var body: Data
        var url: URL?
        var requestTime: Date
        var responseTime: Date
        var varyingRequestHeaders: [[String]]

        init(_ stored: CachedResponse) {
            statusCode = stored.response.statusCode
            headers = stored.response.headers.map { [$0.name, $0.value] }
            body = stored.response.body
            url = stored.response.url
            requestTime = stored.requestTime
            responseTime = stored.responseTime
            varyingRequestHeaders = stored.varyingRequestHeaders.map { [$0.name, $0.value] }
        }

        var cachedResponse: CachedResponse {
            CachedResponse(
                response: HTTPResponse(statusCode: statusCode, headers: Self.headers(headers), body: body, url: url),
                requestTime: requestTime, responseTime: responseTime, varyingRequestHeaders: Self.headers(varyingRequestHeaders))
        }

        private static func headers(_ pairs: [[String]]) -> HTTPHeaders {
            HTTPHeaders(pairs.compactMap { $0.count == 2 ? HTTPHeader(name: $0[0], value: $0[1]) : nil })
        }
    }

    var key: String
    var responses: [Response]
}
