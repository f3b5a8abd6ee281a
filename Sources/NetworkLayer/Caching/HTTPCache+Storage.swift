import Foundation

extension HTTPCache {
    /// Where an ``HTTPCache`` keeps its responses: in memory, or in files that outlive the process.
    ///
    /// ```swift
    /// let directory = FileManager.default.temporaryDirectory.appendingPathComponent("MovieCache")
    /// let persistent = HTTPCache(storage: try .disk(directory: directory))
    /// ```
    public struct Storage: Sendable {
        /// What keeps the responses.
        let backend: any HTTPCacheStorage

        /// Responses in memory, up to `capacity` bytes (bodies, headers and URLs counted), the least
        /// recently used URL forgotten first; a set of responses larger than the whole capacity is not kept.
        /// - Parameter capacity: The most bytes kept; 10 MiB by default.
        public static func memory(capacity: Int = 10 * 1024 * 1024) -> Storage {
            Storage(backend: MemoryCacheStorage(capacity: capacity))
        }

        /// Responses in files in `directory`, a directory of the cache's own, up to `capacity` bytes, the
        /// least recently used URL forgotten first (across launches too). Each URL's responses are one
        /// file, written atomically, so a crash never leaves half an entry; a file that cannot be read
        /// back is a miss and is deleted.
        /// - Parameters:
        ///   - directory: Where the files go, created if needed; files there that are not the cache's are deleted when read.
        ///   - capacity: The most bytes the files take; 50 MiB by default.
        /// - Throws: The error creating the directory.
        public static func disk(directory: URL, capacity: Int = 50 * 1024 * 1024) throws -> Storage {
            Storage(backend: try DiskCacheStorage(directory: directory, capacity: capacity))
        }
    }
}
